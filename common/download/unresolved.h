/* The host and proxy names that did not resolve for one file's URLs, and the words that report
   them: a file none of whose URLs resolved fails at once, in one line naming them. */
#ifndef FUEL_UNRESOLVED_H
#define FUEL_UNRESOLVED_H

#include <curl/curl.h>
#include <stddef.h>

enum { UNRESOLVED_NAMES_SIZE = 256 };

struct unresolved {
    size_t urls;                            /* URLs that failed because a name did not resolve */
    char hosts[UNRESOLVED_NAMES_SIZE];      /* "a, b", each name once */
    char proxies[UNRESOLVED_NAMES_SIZE];
    unsigned host_count, proxy_count;
};

/* Counts URL's failure with RESULT (CURLE_COULDNT_RESOLVE_HOST or _PROXY) and keeps the name as
   libcurl's MESSAGE gives it ("Could not resolve host: NAME"), else URL's host. */
void unresolved_note(struct unresolved *unresolved, CURLcode result, const char *message,
                     const char *url);

/* "cannot resolve host a", "cannot resolve hosts a, b", "cannot resolve proxy p", or both
   joined by " nor ", into TEXT. */
void unresolved_describe(const struct unresolved *unresolved, char *text, size_t size);

#endif
