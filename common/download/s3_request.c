/* Builds S3 request URLs and hands the signing to libcurl's CURLOPT_AWS_SIGV4. */
#include "s3_request.h"

#include "common/base/error.h"
#include "s3_location.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.' || c == '~';
}

/* TEXT percent-encoded, '/' kept when KEEP_SLASH. */
static char *percent_encode(const char *text, bool keep_slash)
{
    size_t length = strlen(text);
    char *encoded = malloc(3 * length + 1), *out = encoded;
    if (encoded == NULL)
        return NULL;
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (unreserved(*c) || (keep_slash && *c == '/'))
            *out++ = (char)*c;
        else
            out += sprintf(out, "%%%02X", *c);
    }
    *out = '\0';
    return encoded;
}

char *s3_query_escape(const char *value)
{
    return percent_encode(value, false);
}

/* The endpoint without its trailing slashes. */
static size_t endpoint_length(const char *endpoint)
{
    size_t length = strlen(endpoint);
    while (length > 0 && endpoint[length - 1] == '/')
        length--;
    return length;
}

char *s3_request_url(const struct s3_credentials *credentials, const char *bucket,
                     const char *key, const char *query)
{
    char *path = percent_encode(key, true), *url = NULL;
    if (path == NULL)
        return NULL;
    const char *mark = query[0] != '\0' ? "?" : "";
    int made;
    if (credentials->endpoint != NULL)
        made = asprintf(&url, "%.*s/%s/%s%s%s", (int)endpoint_length(credentials->endpoint),
                        credentials->endpoint, bucket, path, mark, query);
    else if (strchr(bucket, '.') != NULL)   /* a dotted name does not match the wildcard cert */
        made = asprintf(&url, "https://s3.%s.amazonaws.com/%s/%s%s%s", credentials->region, bucket,
                        path, mark, query);
    else
        made = asprintf(&url, "https://%s.s3.%s.amazonaws.com/%s%s%s", bucket, credentials->region,
                        path, mark, query);
    free(path);
    return made < 0 ? NULL : url;
}

static int header_add(struct curl_slist **headers, const char *name, const char *value)
{
    char line[4096];
    snprintf(line, sizeof line, "%s: %s", name, value);
    struct curl_slist *grown = curl_slist_append(*headers, line);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "out of memory: an S3 request's headers");
    *headers = grown;
    return EXIT_OK;
}

int s3_request_sign(CURL *easy, struct curl_slist **headers,
                    const struct s3_credentials *credentials, const char *payload_sha256)
{
    if (credentials->ca_bundle != NULL)
        curl_easy_setopt(easy, CURLOPT_CAINFO, credentials->ca_bundle);
    if (credentials->insecure) {
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (credentials->access_key == NULL)
        return EXIT_OK;
    char provider[96];
    snprintf(provider, sizeof provider, "aws:amz:%s:s3", credentials->region);
    curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, provider);
    curl_easy_setopt(easy, CURLOPT_USERNAME, credentials->access_key);
    curl_easy_setopt(easy, CURLOPT_PASSWORD, credentials->secret_key);
    int code = header_add(headers, "x-amz-content-sha256", payload_sha256);
    if (code == EXIT_OK && credentials->session_token != NULL)
        code = header_add(headers, "x-amz-security-token", credentials->session_token);
    return code;
}

int s3_request_prepare_get(CURL *easy, struct curl_slist **headers, const char *s3_url,
                           char **url)
{
    struct s3_location location;
    int code = s3_location_parse(&location, s3_url);
    if (code != EXIT_OK)
        return code;
    const struct s3_credentials *credentials = s3_credentials_shared();
    if (credentials == NULL) {
        s3_location_free(&location);
        return error_code();
    }
    *url = s3_request_url(credentials, location.bucket, location.key, "");
    s3_location_free(&location);
    if (*url == NULL)
        return error_set(EXIT_OTHER, "out of memory: %s", s3_url);
    return s3_request_sign(easy, headers, credentials, S3_EMPTY_SHA256);
}
