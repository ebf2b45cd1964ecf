/* Pages through S3 listings: continuation tokens for objects, key and upload-id markers for
   multipart uploads, each page bounded by S3_XML_LIMIT. */
#include "s3_listing.h"

#include "common/base/error.h"
#include "s3/s3_client.h"
#include "common/download/s3_location.h"
#include "common/download/s3_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE_LIMIT = 100000 };

/* The keys of a page, FUEL_S3_LIST_KEYS when it is a whole number from 1 (the tests' short
   pages), else NULL: the store's own (1,000 on AWS and Swift). */
static const char *page_keys(void)
{
    const char *keys = getenv("FUEL_S3_LIST_KEYS");
    if (keys == NULL || keys[0] < '1' || keys[0] > '9' ||
        strspn(keys, "0123456789") != strlen(keys))
        return NULL;
    return keys;
}

/* QUERY's "name=value" pairs, values escaped, in the order given (already sorted by name);
   pairs whose value is NULL are left out. NULL when out of memory. */
static char *query_build(const char *const *names, const char *const *values, size_t count)
{
    size_t size = 1;
    for (size_t index = 0; index < count; index++)
        size += values[index] != NULL ? strlen(names[index]) + 3 * strlen(values[index]) + 2 : 0;
    char *query = malloc(size);
    if (query == NULL)
        return NULL;
    query[0] = '\0';
    for (size_t index = 0; index < count; index++) {
        if (values[index] == NULL)
            continue;
        char *escaped = s3_query_escape(values[index]);
        if (escaped == NULL) {
            free(query);
            return NULL;
        }
        snprintf(query + strlen(query), size - strlen(query), "%s%s=%s", query[0] ? "&" : "",
                 names[index], escaped);
        free(escaped);
    }
    return query;
}

/* One page: visits its entries; the answer is kept for the caller's markers. */
static int page_read(const struct s3_credentials *credentials, const char *bucket,
                     const char *query, struct s3_answer *answer, s3_entry_visitor *visit,
                     void *data)
{
    struct s3_call call = {.method = "GET", .bucket = bucket, .key = "", .query = query,
                           .upload_descriptor = -1};
    struct s3_response response;
    int code = s3_call_perform(credentials, &call, "cannot list", &response);
    if (code == EXIT_OK)
        code = s3_xml_parse(response.body, response.size, "a listing", answer);
    s3_response_free(&response);
    for (size_t index = 0; code == EXIT_OK && index < answer->count; index++) {
        const struct s3_entry *entry = &answer->entries[index];
        if (entry->key == NULL || !s3_key_is_safe(entry->key))
            code = error_set(EXIT_CORRUPT_INPUT, "refused key in a listing: s3://%s/%s: an "
                             "absolute name, an empty, '.' or '..' component, or a control "
                             "character", bucket, entry->key != NULL ? entry->key : "");
        else
            code = visit(entry, data);
    }
    return code;
}

/* ListObjectsV2 of PREFIX; with DELIMITER "/" only the objects directly below it. */
static int objects_list(const struct s3_credentials *credentials, const char *bucket,
                        const char *prefix, const char *delimiter, s3_entry_visitor *visit,
                        void *data)
{
    const char *names[] = {"continuation-token", "delimiter", "list-type", "max-keys", "prefix"};
    char *token = NULL;
    int code = EXIT_OK;
    for (unsigned page = 0; code == EXIT_OK && page < PAGE_LIMIT; page++) {
        const char *values[] = {token, delimiter, "2", page_keys(), prefix};
        char *query = query_build(names, values, 5);
        struct s3_answer answer = {0};
        code = query != NULL ? page_read(credentials, bucket, query, &answer, visit, data)
                             : error_set(EXIT_OTHER, "out of memory: listing s3://%s", bucket);
        free(query);
        free(token);
        token = answer.truncated ? answer.next_token : NULL;
        if (token != NULL)
            answer.next_token = NULL;
        s3_answer_free(&answer);
        if (token == NULL)
            break;
    }
    free(token);
    return code;
}

int s3_list_objects(const struct s3_credentials *credentials, const char *bucket,
                    const char *prefix, s3_entry_visitor *visit, void *data)
{
    return objects_list(credentials, bucket, prefix, NULL, visit, data);
}

int s3_list_children(const struct s3_credentials *credentials, const char *bucket,
                     const char *prefix, s3_entry_visitor *visit, void *data)
{
    return objects_list(credentials, bucket, prefix, "/", visit, data);
}

/* The markers of the page after ANSWER into *KEY and *UPLOAD (to free): its NextKeyMarker and
   NextUploadIdMarker, else (absent or empty, as Swift's s3api answers) its last upload's key and
   id. false when there is no next page; EXIT_TRANSFER in *CODE when the markers would not move on
   from KEY_SENT (a store repeating a page would be listed forever). */
static bool upload_markers_next(struct s3_answer *answer, const char *bucket, char **key,
                                char **upload, int *code)
{
    const char *key_sent = *key;
    char *next_key = answer->next_key_marker, *next_upload = answer->next_upload_marker;
    const struct s3_entry *last = answer->count > 0 ? &answer->entries[answer->count - 1] : NULL;
    bool given = next_key != NULL && next_key[0] != '\0';
    char *new_key = given ? strdup(next_key) : last != NULL ? strdup(last->key) : NULL;
    char *new_upload = given ? (next_upload != NULL ? strdup(next_upload) : NULL)
                       : last != NULL && last->upload_id != NULL ? strdup(last->upload_id)
                                                                 : NULL;
    bool more = answer->truncated && new_key != NULL;
    if (more && key_sent != NULL && strcmp(new_key, key_sent) == 0 && *upload != NULL &&
        new_upload != NULL && strcmp(new_upload, *upload) == 0) {
        *code = error_set(EXIT_TRANSFER, "cannot list: s3://%s/: the store answered the same "
                          "page of multipart uploads again", bucket);
        more = false;
    }
    free(*key);
    free(*upload);
    *key = more ? new_key : NULL;
    *upload = more ? new_upload : NULL;
    if (!more) {
        free(new_key);
        free(new_upload);
    }
    return more;
}

int s3_list_uploads(const struct s3_credentials *credentials, const char *bucket,
                    const char *prefix, s3_entry_visitor *visit, void *data)
{
    const char *names[] = {"key-marker", "max-uploads", "prefix", "upload-id-marker", "uploads"};
    char *key_marker = NULL, *upload_marker = NULL;
    int code = EXIT_OK;
    for (unsigned page = 0; code == EXIT_OK && page < PAGE_LIMIT; page++) {
        const char *values[] = {key_marker, page_keys(), prefix, upload_marker, ""};
        char *query = query_build(names, values, 5);
        struct s3_answer answer = {0};
        code = query != NULL ? page_read(credentials, bucket, query, &answer, visit, data)
                             : error_set(EXIT_OTHER, "out of memory: listing s3://%s", bucket);
        free(query);
        bool more = code == EXIT_OK &&
                    upload_markers_next(&answer, bucket, &key_marker, &upload_marker, &code);
        s3_answer_free(&answer);
        if (!more)
            break;
    }
    free(key_marker);
    free(upload_marker);
    return code;
}
