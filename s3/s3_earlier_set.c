/* Reads the shard names of the listing an earlier export left in the bucket. */
#include "s3_earlier_set.h"

#include "common/base/error.h"
#include "common/download/s3_credentials.h"
#include "common/download/s3_location.h"
#include "s3/s3_client.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The "name" of every entry of the listing's "shards". */
static int names_take(json_t *document, struct s3_earlier_set *set)
{
    json_t *shards = json_object_get(document, "shards");
    size_t count = json_is_array(shards) ? json_array_size(shards) : 0;
    set->names = calloc(count ? count : 1, sizeof *set->names);
    if (set->names == NULL)
        return error_set(EXIT_OTHER, "out of memory reading an earlier listing");
    for (size_t index = 0; index < count; index++) {
        const char *name = json_string_value(json_object_get(json_array_get(shards, index),
                                                             "name"));
        if (name == NULL)
            continue;
        if ((set->names[set->count] = strdup(name)) == NULL)
            return error_set(EXIT_OTHER, "out of memory reading an earlier listing");
        set->count++;
    }
    return EXIT_OK;
}

int s3_earlier_set_read(const char *bucket, const char *prefix, const char *listing,
                        struct s3_earlier_set *set)
{
    *set = (struct s3_earlier_set){0};
    char *key = s3_key_join(prefix, listing);
    if (key == NULL)
        return error_code();
    struct s3_call call = {.method = "GET", .bucket = bucket, .key = key, .query = "",
                           .upload_descriptor = -1};
    struct s3_response response;
    int code = s3_call_perform(s3_credentials_shared(), &call, "cannot read", &response);
    if (code != EXIT_OK && response.status == 404) {
        code = EXIT_OK;
        error_clear();
    } else if (code == EXIT_OK) {
        json_t *document = json_loadb(response.body, response.size, 0, NULL);
        if (json_is_object(document))
            code = names_take(document, set);
        json_decref(document);
    }
    s3_response_free(&response);
    free(key);
    if (code != EXIT_OK)
        s3_earlier_set_free(set);
    return code;
}

void s3_earlier_set_free(struct s3_earlier_set *set)
{
    for (size_t index = 0; index < set->count; index++)
        free(set->names[index]);
    free(set->names);
    *set = (struct s3_earlier_set){0};
}
