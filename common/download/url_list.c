/* Joins mirror prefixes and file names into the list of URLs tried for one file. */
#include "url_list.h"

#include "common/base/error.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int url_list_contains(const struct url_list *list, const char *url)
{
    for (size_t index = 0; index < list->count; index++)
        if (strcmp(list->items[index], url) == 0)
            return 1;
    return 0;
}

static int url_list_take(struct url_list *list, char *url)
{
    if (url == NULL)
        return error_set(EXIT_OTHER, "cannot build URL list: out of memory");
    if (url_list_contains(list, url)) {
        free(url);
        return EXIT_OK;
    }
    char **items = realloc(list->items, (list->count + 1) * sizeof *items);
    if (items == NULL) {
        free(url);
        return error_set(EXIT_OTHER, "cannot build URL list: out of memory");
    }
    list->items = items;
    list->items[list->count++] = url;
    return EXIT_OK;
}

/* file://PATH/ with every byte of PATH but letters, digits, '/', '-', '.', '_' and '~'
   percent-encoded. */
static char *file_url(const char *path)
{
    static const char digits[] = "0123456789ABCDEF";
    size_t length = strlen(path);
    char *url = malloc(sizeof "file://" + 3 * length + 1);
    if (url == NULL)
        return NULL;
    char *end = url + sprintf(url, "file://");
    for (const unsigned char *byte = (const unsigned char *)path; *byte != '\0'; byte++) {
        if ((*byte >= 'a' && *byte <= 'z') || (*byte >= 'A' && *byte <= 'Z') ||
            (*byte >= '0' && *byte <= '9') || strchr("/-._~", *byte) != NULL) {
            *end++ = (char)*byte;
            continue;
        }
        *end++ = '%';
        *end++ = digits[*byte >> 4];
        *end++ = digits[*byte & 15];
    }
    if (end[-1] != '/')
        *end++ = '/';
    *end = '\0';
    return url;
}

int url_list_missing(const char *name, const char *path)
{
    struct stat status;
    if (stat(path, &status) == 0)
        return error_set(EXIT_TRANSFER, "cannot download: %s: no public URL, and %s does not match "
                         "its published size and checksum; give --url-prefix URL of a copy, or "
                         "--checksums FILE listing the copy you have", name, path);
    return error_set(EXIT_TRANSFER, "cannot download: %s: no public URL; give --url-prefix URL of "
                     "a copy, or put the file at %s by hand", name, path);
}

char *url_prefix_resolve(const char *prefix)
{
    struct stat status;
    char directory[PATH_MAX];
    if (strstr(prefix, "://") != NULL || stat(prefix, &status) != 0 ||
        !S_ISDIR(status.st_mode) || realpath(prefix, directory) == NULL)
        return strdup(prefix);
    return file_url(directory);
}

static char *url_join(const char *given, const char *name)
{
    char *prefix = url_prefix_resolve(given), *url;
    if (prefix == NULL)
        return NULL;
    size_t length = strlen(prefix);
    const char *separator = length > 0 && prefix[length - 1] == '/' ? "" : "/";
    int written = asprintf(&url, "%s%s%s", prefix, separator, name);
    free(prefix);
    return written < 0 ? NULL : url;
}

int url_list_build(struct url_list *list, const struct url_sources *sources, const char *name)
{
    list->items = NULL;
    list->count = 0;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < sources->mirror_count; index++)
        result = url_list_take(list, url_join(sources->mirrors[index], name));
    if (result == EXIT_OK && sources->prefix != NULL)
        result = url_list_take(list, url_join(sources->prefix, name));
    for (size_t index = 0; result == EXIT_OK && sources->prefix == NULL &&
                           index < sources->builtin_count; index++)
        result = url_list_take(list, strdup(sources->builtin[index]));
    if (result != EXIT_OK)
        url_list_free(list);
    return result;
}

void url_list_free(struct url_list *list)
{
    for (size_t index = 0; index < list->count; index++)
        free(list->items[index]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}
