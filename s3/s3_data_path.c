/* Searches the data path's entries in order; a bucket prefix is listed once and its names kept
   sorted, as S3 lists them, for lookups by binary search. */
#include "s3_data_path.h"

#include "common/base/error.h"
#include "common/download/s3_credentials.h"
#include "common/download/s3_location.h"
#include "s3/s3_listing.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LISTINGS_KEPT = 16 };

struct listing {
    char *url;      /* s3://BUCKET/PREFIX/ listed */
    struct s3_listed *objects;
    size_t count, capacity;
    size_t prefix_length;
};

static struct listing listings[LISTINGS_KEPT];
static size_t listing_count;

static int object_add(const struct s3_entry *entry, void *data)
{
    struct listing *listing = data;
    if (listing->count >= S3_DATA_PATH_LISTING_LIMIT)
        return error_set(EXIT_CORRUPT_INPUT, "too many objects: %s: a data path entry lists at "
                         "most %d objects", listing->url, S3_DATA_PATH_LISTING_LIMIT);
    if (listing->count == listing->capacity) {
        size_t capacity = listing->capacity > 0 ? 2 * listing->capacity : 64;
        struct s3_listed *grown = realloc(listing->objects, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory: listing %s", listing->url);
        listing->objects = grown;
        listing->capacity = capacity;
    }
    char *name = strlen(entry->key) >= listing->prefix_length
                     ? strdup(entry->key + listing->prefix_length) : NULL;
    if (name == NULL)
        return error_set(EXIT_OTHER, "out of memory: listing %s", listing->url);
    listing->objects[listing->count++] = (struct s3_listed){name, entry->size};
    return EXIT_OK;
}

static int object_compare(const void *left, const void *right)
{
    return strcmp(((const struct s3_listed *)left)->name, ((const struct s3_listed *)right)->name);
}

static void listing_free(struct listing *listing)
{
    for (size_t index = 0; index < listing->count; index++)
        free(listing->objects[index].name);
    free(listing->objects);
    free(listing->url);
    memset(listing, 0, sizeof *listing);
}

/* The listing of BUCKET's PREFIX (a key ending with '/' or ""), made by the first call. */
static int listing_get(const char *bucket, const char *prefix, struct listing **found)
{
    char *url = NULL;
    if (asprintf(&url, "s3://%s/%s", bucket, prefix) < 0)
        return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", bucket, prefix);
    for (size_t index = 0; index < listing_count; index++)
        if (strcmp(listings[index].url, url) == 0) {
            free(url);
            *found = &listings[index];
            return EXIT_OK;
        }
    if (listing_count == LISTINGS_KEPT)
        listing_free(&listings[--listing_count]);
    struct listing *listing = &listings[listing_count];
    *listing = (struct listing){.url = url, .prefix_length = strlen(prefix)};
    const struct s3_credentials *credentials = s3_credentials_shared();
    int code = credentials == NULL ? error_code()
                                   : s3_list_children(credentials, bucket, prefix, object_add,
                                                      listing);
    if (code != EXIT_OK) {
        listing_free(listing);
        return code;
    }
    qsort(listing->objects, listing->count, sizeof *listing->objects, object_compare);
    listing_count++;
    *found = listing;
    return EXIT_OK;
}

/* Whether ENTRY's bucket prefix holds NAME: its URL into PATH, its size into *OBJECT_SIZE. */
static int entry_search(const char *entry, const char *name, char *path, size_t size,
                        uint64_t *object_size, bool *found)
{
    struct s3_location location;
    int code = s3_location_parse(&location, entry);
    if (code != EXIT_OK)
        return code;
    char *key = s3_key_join(location.key, name);
    const char *slash = key != NULL ? strrchr(key, '/') : NULL;
    char *prefix = key != NULL ? strndup(key, slash != NULL ? (size_t)(slash + 1 - key) : 0) : NULL;
    struct listing *listing = NULL;
    code = key == NULL      ? error_code()
           : prefix == NULL ? error_set(EXIT_OTHER, "out of memory: %s", entry)
                            : listing_get(location.bucket, prefix, &listing);
    if (code == EXIT_OK) {
        struct s3_listed wanted = {.name = key + strlen(prefix)};
        const struct s3_listed *match = bsearch(&wanted, listing->objects, listing->count,
                                             sizeof *listing->objects, object_compare);
        *found = match != NULL;
        if (match != NULL && object_size != NULL)
            *object_size = match->size;
        if (match != NULL && snprintf(path, size, "s3://%s/%s", location.bucket, key) >= (int)size)
            code = error_set(EXIT_USAGE, "path too long: s3://%s/%s", location.bucket, key);
    }
    free(prefix);
    free(key);
    s3_location_free(&location);
    return code;
}

int s3_prefix_list(const char *entry, const struct s3_listed **objects, size_t *count)
{
    struct s3_location location;
    int code = s3_location_parse(&location, entry);
    if (code != EXIT_OK)
        return code;
    char *prefix = s3_key_join(location.key, "x");
    struct listing *listing = NULL;
    if (prefix == NULL)
        code = error_code();
    else {
        prefix[strlen(prefix) - 1] = '\0';
        code = listing_get(location.bucket, prefix, &listing);
    }
    *objects = code == EXIT_OK ? listing->objects : NULL;
    *count = code == EXIT_OK ? listing->count : 0;
    free(prefix);
    s3_location_free(&location);
    return code;
}

int data_path_search(const struct fuel_config *config, const char *name, char *path, size_t size,
                     uint64_t *object_size)
{
    if (object_size != NULL)
        *object_size = 0;
    for (size_t index = 0; index < config->data_path.count; index++) {
        const char *entry = config->data_path.items[index];
        bool found = false;
        int code = EXIT_OK;
        if (data_path_entry_is_store(entry))
            code = entry_search(entry, name, path, size, object_size, &found);
        else {
            struct fuel_config single = {.data_path = {.items = (char **)&entry, .count = 1}};
            code = data_path_find(&single, name, path, size);
            found = code == EXIT_OK;
            if (code == EXIT_MISSING_INPUT) {
                code = EXIT_OK;
                error_clear();
            }
        }
        if (code != EXIT_OK || found)
            return code;
    }
    return data_path_find(config, name, path, size);
}
