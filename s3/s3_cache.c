/* Copies an S3 object to the local data path once: a HEAD for its size and digest, then the
   download stack's verified, resumable transfer into the copy's directory under its lock. */
#include "s3_cache.h"

#include "common/base/directory.h"
#include "common/base/error.h"
#include "common/download/download_run.h"
#include "s3/s3_client.h"
#include "common/download/s3_location.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { MD5_HEX = 32, SHA256_HEX = 64 };

static bool is_hex(const char *text, size_t length)
{
    if (strlen(text) != length)
        return false;
    for (size_t index = 0; index < length; index++)
        if (strchr("0123456789abcdef", text[index]) == NULL)
            return false;
    return true;
}

/* The object's digest to verify against: its sha256 metadata, else a single-part ETag (an MD5). */
static void object_checksum(struct s3_response *head, char *checksum, size_t size)
{
    char etag[sizeof head->etag];
    size_t length = strlen(head->etag);
    snprintf(etag, sizeof etag, "%s", head->etag[0] == '"' ? head->etag + 1 : head->etag);
    if (length > 1 && head->etag[0] == '"')
        etag[length - 2] = '\0';
    checksum[0] = '\0';
    if (is_hex(head->sha256, SHA256_HEX) && size > SHA256_HEX)
        memcpy(checksum, head->sha256, SHA256_HEX + 1);
    else if (is_hex(etag, MD5_HEX) && size > MD5_HEX)
        memcpy(checksum, etag, MD5_HEX + 1);
}

static int copy_locked(const char *url, const char *directory, const char *name,
                       struct s3_response *head, enum progress_mode progress, bool *copied)
{
    char checksum[72], final[8192];
    object_checksum(head, checksum, sizeof checksum);
    snprintf(final, sizeof final, "%s/%s", directory, name);
    struct stat before;
    bool existed = stat(final, &before) == 0;
    char *urls[] = {(char *)url};
    struct download_item item = {.name = name, .urls = urls, .url_count = 1,
                                 .size = head->content_length,
                                 .checksum = checksum[0] != '\0' ? checksum : NULL};
    struct download_options options = {.directory = directory, .jobs = 1, .retries = S3_RETRIES,
                                       .timeout = 60, .retry_delay = S3_RETRY_DELAY,
                                       .progress = progress};
    int code = download_run(&item, 1, &options);
    struct stat after;
    *copied = code == EXIT_OK && (!existed || (stat(final, &after) == 0 &&
                                               (after.st_ino != before.st_ino ||
                                                after.st_mtime != before.st_mtime)));
    return code;
}

int s3_cache(const char *url, const char *local_directory, enum progress_mode progress,
             char *path, size_t size, bool *copied)
{
    struct s3_location location;
    int code = s3_location_parse(&location, url);
    if (code != EXIT_OK)
        return code;
    size_t key_length = strlen(location.key);
    char directory[4096];
    if (key_length == 0 || location.key[key_length - 1] == '/')
        code = error_set(EXIT_CORRUPT_INPUT, "not an object: %s: the name ends with '/'", url);
    const char *slash = strrchr(location.key, '/');
    const char *name = slash != NULL ? slash + 1 : location.key;
    if (code == EXIT_OK &&
        (snprintf(directory, sizeof directory, "%s/s3/%s%s%.*s", local_directory,
                  location.bucket, slash != NULL ? "/" : "",
                  (int)(slash != NULL ? slash - location.key : 0), location.key) >= (int)sizeof directory ||
         snprintf(path, size, "%s/%s", directory, name) >= (int)size))
        code = error_set(EXIT_WRITE, "cannot write: %s: name too long", url);
    struct s3_response head = {0};
    if (code == EXIT_OK)
        code = s3_object_head(&location, &head);
    int lock = -1;
    if (code == EXIT_OK)
        code = directory_create(directory);
    if (code == EXIT_OK)
        code = directory_lock_waiting(directory, NULL, &lock);
    if (code == EXIT_OK) {
        code = copy_locked(url, directory, name, &head, progress, copied);
        directory_unlock(lock, directory, DIRECTORY_LOCK_NAME);
    }
    s3_response_free(&head);
    s3_location_free(&location);
    return code;
}
