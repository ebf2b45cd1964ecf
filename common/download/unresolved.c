/* Collects the names that did not resolve for one file and words the line that reports them. */
#include "unresolved.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Adds NAME to the comma-separated LIST unless it is there already; counts it in COUNT. */
static void name_list_add(char *list, unsigned *count, const char *name)
{
    size_t length = strlen(name);
    for (const char *found = strstr(list, name); found != NULL; found = strstr(found + 1, name))
        if ((found == list || found[-1] == ' ') && (found[length] == ',' || !found[length]))
            return;
    size_t used = strlen(list);
    snprintf(list + used, UNRESOLVED_NAMES_SIZE - used, "%s%s", used > 0 ? ", " : "", name);
    (*count)++;
}

/* URL's host, or "" when it has none. */
static void url_host(const char *url, char *name, size_t size)
{
    CURLU *parts = curl_url();
    char *host = NULL;
    name[0] = '\0';
    if (parts != NULL && curl_url_set(parts, CURLUPART_URL, url, CURLU_GUESS_SCHEME) == CURLUE_OK &&
        curl_url_get(parts, CURLUPART_HOST, &host, 0) == CURLUE_OK)
        snprintf(name, size, "%s", host);
    curl_free(host);
    curl_url_cleanup(parts);
}

void unresolved_note(struct unresolved *unresolved, CURLcode result, const char *message,
                     const char *url)
{
    bool proxy = result == CURLE_COULDNT_RESOLVE_PROXY;
    const char *colon = strstr(message, ": ");
    char name[CURL_ERROR_SIZE] = "";
    if (strncmp(message, "Could not resolve ", 18) == 0 && colon != NULL)
        snprintf(name, sizeof name, "%s", colon + 2);
    else if (!proxy)
        url_host(url, name, sizeof name);
    if (name[0] == '\0')
        snprintf(name, sizeof name, "%s", proxy ? "(of the environment)" : url);
    unresolved->urls++;
    if (proxy)
        name_list_add(unresolved->proxies, &unresolved->proxy_count, name);
    else
        name_list_add(unresolved->hosts, &unresolved->host_count, name);
}

void unresolved_describe(const struct unresolved *unresolved, char *text, size_t size)
{
    char hosts[UNRESOLVED_NAMES_SIZE + 16] = "", proxies[UNRESOLVED_NAMES_SIZE + 16] = "";
    if (unresolved->host_count > 0)
        snprintf(hosts, sizeof hosts, "host%s %s", unresolved->host_count > 1 ? "s" : "",
                 unresolved->hosts);
    if (unresolved->proxy_count > 0)
        snprintf(proxies, sizeof proxies, "prox%s %s", unresolved->proxy_count > 1 ? "ies" : "y",
                 unresolved->proxies);
    snprintf(text, size, "cannot resolve %s%s%s", hosts, hosts[0] && proxies[0] ? " nor " : "",
             proxies);
}
