/* Parses s3:// names and refuses keys that would climb out of their prefix. */
#include "s3_location.h"

#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char S3_SCHEME[] = "s3://";

bool s3_is_url(const char *text)
{
    return text != NULL && strncmp(text, S3_SCHEME, sizeof S3_SCHEME - 1) == 0;
}

/* S3's rules: 3 to 63 lowercase letters, digits, '.' and '-', a letter or digit at each end. */
static bool bucket_is_valid(const char *name, size_t length)
{
    if (length < 3 || length >= S3_BUCKET_SIZE)
        return false;
    for (size_t index = 0; index < length; index++) {
        char c = name[index];
        bool alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alphanumeric && ((c != '.' && c != '-') || index == 0 || index == length - 1))
            return false;
    }
    return true;
}

/* Whether the component of LENGTH bytes at START is "", "." or "..". */
static bool component_is_bad(const char *start, size_t length)
{
    return length == 0 || (length == 1 && start[0] == '.') ||
           (length == 2 && start[0] == '.' && start[1] == '.');
}

bool s3_key_is_safe(const char *key)
{
    size_t length = strlen(key);
    if (length == 0 || length > S3_KEY_LIMIT || key[0] == '/')
        return false;
    for (size_t index = 0; index < length; index++)
        if ((unsigned char)key[index] < 0x20 || key[index] == 0x7f || key[index] == '\\')
            return false;
    const char *start = key;
    for (;;) {
        const char *slash = strchr(start, '/');
        size_t component = slash != NULL ? (size_t)(slash - start) : strlen(start);
        if (slash == NULL)
            return component == 0 ? start != key : !component_is_bad(start, component);
        if (component_is_bad(start, component))
            return false;
        start = slash + 1;
    }
}

int s3_location_parse(struct s3_location *location, const char *url)
{
    location->key = NULL;
    location->bucket[0] = '\0';
    if (!s3_is_url(url))
        return error_set(EXIT_CORRUPT_INPUT, "not an s3:// name: %s", url);
    const char *bucket = url + sizeof S3_SCHEME - 1;
    const char *slash = strchr(bucket, '/');
    size_t bucket_length = slash != NULL ? (size_t)(slash - bucket) : strlen(bucket);
    if (!bucket_is_valid(bucket, bucket_length))
        return error_set(EXIT_CORRUPT_INPUT, "bad bucket name: %s: S3 bucket names are 3 to 63 "
                         "lowercase letters, digits, '.' and '-'", url);
    const char *key = slash != NULL ? slash + 1 : "";
    if (key[0] != '\0' && !s3_key_is_safe(key))
        return error_set(EXIT_CORRUPT_INPUT, "refused key: %s: an absolute name, an empty, '.' or "
                         "'..' component, or a control character", url);
    location->key = strdup(key);
    if (location->key == NULL)
        return error_set(EXIT_OTHER, "out of memory: %s", url);
    memcpy(location->bucket, bucket, bucket_length);
    location->bucket[bucket_length] = '\0';
    return EXIT_OK;
}

void s3_location_free(struct s3_location *location)
{
    free(location->key);
    location->key = NULL;
}

char *s3_key_join(const char *prefix, const char *name)
{
    size_t prefix_length = strlen(prefix);
    bool separator = prefix_length > 0 && prefix[prefix_length - 1] != '/';
    size_t size = prefix_length + separator + strlen(name) + 1;
    char *key = malloc(size);
    if (key == NULL) {
        error_set(EXIT_OTHER, "out of memory: %s", name);
        return NULL;
    }
    snprintf(key, size, "%s%s%s", prefix, separator ? "/" : "", name);
    if (name[0] == '\0' || name[0] == '/' || !s3_key_is_safe(key)) {
        error_set(EXIT_CORRUPT_INPUT, "refused key: %s: it would leave the prefix %s", name,
                  prefix[0] != '\0' ? prefix : "(the bucket)");
        free(key);
        return NULL;
    }
    return key;
}
