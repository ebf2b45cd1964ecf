/* The ordered URLs a file is fetched from, after mirrors and prefixes are applied. */
#ifndef FUEL_URL_LIST_H
#define FUEL_URL_LIST_H

#include <stddef.h>

struct url_list {
    char **items;
    size_t count;
};

struct url_sources {
    const char *const *builtin;    /* the downloader's URLs, in order */
    size_t builtin_count;
    const char *const *mirrors;    /* prefixes tried first, in order */
    size_t mirror_count;
    const char *prefix;            /* NULL, or replaces every built-in URL up to the file name */
};

/* Fills LIST with each mirror + NAME, then PREFIX + NAME when a prefix is given or else the
   built-in URLs; duplicates are dropped, a '/' is put between a prefix and NAME when missing. A
   mirror or prefix is first resolved as url_prefix_resolve does. */
int url_list_build(struct url_list *list, const struct url_sources *sources, const char *name);
void url_list_free(struct url_list *list);

/* PREFIX as a URL prefix: one without a scheme ("://") that names an existing directory becomes
   file://ITS_ABSOLUTE_PATH/, percent-encoded; any other is kept as it is. NULL when out of
   memory. */
char *url_prefix_resolve(const char *prefix);

/* The error for a file NAME that must be fetched but has no URL (its dataset publishes none, and
   no --url-prefix or mirror gives one): EXIT_TRANSFER, saying how to supply it; PATH is where it
   would go, and the message says when a file there does not verify. */
int url_list_missing(const char *name, const char *path);

#endif
