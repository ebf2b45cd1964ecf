/* Copies the listings an earlier export left in the bucket, and keeps the names read from them. */
#include "s3_earlier_set.h"

#include "common/base/error.h"
#include "common/download/s3_credentials.h"
#include "common/download/s3_location.h"
#include "s3/s3_client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* DIRECTORY/NAME written with the SIZE bytes of BODY. */
static int copy_write(const char *directory, const char *name, const char *body, size_t size)
{
    char path[8192];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", directory, name) >= sizeof path)
        return error_set(EXIT_WRITE, "cannot write: %s: path too long", name);
    int descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    size_t written = 0;
    while (descriptor >= 0 && written < size) {
        ssize_t count = write(descriptor, body + written, size - written);
        if (count < 0 && errno != EINTR)
            break;
        written += count > 0 ? (size_t)count : 0;
    }
    int code = descriptor >= 0 && written == size && close(descriptor) == 0
                   ? EXIT_OK : error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    if (descriptor >= 0 && code != EXIT_OK)
        close(descriptor);
    return code;
}

int s3_earlier_listing_copy(const char *bucket, const char *prefix, const char *name,
                            const char *directory, bool *found)
{
    *found = false;
    char *key = s3_key_join(prefix, name);
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
        *found = true;
        code = copy_write(directory, name, response.body ? response.body : "", response.size);
    }
    s3_response_free(&response);
    free(key);
    return code;
}

int s3_earlier_set_add(struct s3_earlier_set *set, const char *name)
{
    char **grown = realloc(set->names, (set->count + 1) * sizeof *grown);
    if (grown != NULL)
        set->names = grown;
    if (grown == NULL || (grown[set->count] = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory reading an earlier listing");
    set->count++;
    return EXIT_OK;
}

void s3_earlier_set_free(struct s3_earlier_set *set)
{
    for (size_t index = 0; index < set->count; index++)
        free(set->names[index]);
    free(set->names);
    *set = (struct s3_earlier_set){0};
}
