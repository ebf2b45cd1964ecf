/* Stages outputs bound for S3 on the local disk and uploads them, aborting on SIGINT/SIGTERM. */
#include "s3_publish.h"

#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "s3/s3_client.h"
#include "common/download/s3_credentials.h"
#include "s3/s3_upload.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PART_SIZE_MINIMUM = 1024 };

static volatile int upload_interrupted;

static void interrupt_handler(int signal_number)
{
    (void)signal_number;
    upload_interrupted = 1;
}

/* The key PREFIX ends with '/' so that names go below it. */
static int prefix_complete(struct s3_location *location)
{
    size_t length = strlen(location->key);
    if (length == 0 || location->key[length - 1] == '/')
        return EXIT_OK;
    char *grown = realloc(location->key, length + 2);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "out of memory: s3://%s/%s", location->bucket, location->key);
    memcpy(grown + length, "/", 2);
    location->key = grown;
    return EXIT_OK;
}

int s3_publish_begin(struct s3_publish *publish, const char *output, uint64_t bytes,
                     unsigned parts_in_flight)
{
    memset(publish, 0, sizeof *publish);
    publish->staging.lock = -1;
    publish->parts_in_flight = parts_in_flight;
    int code = s3_location_parse(&publish->location, output);
    if (code == EXIT_OK)
        code = prefix_complete(&publish->location);
    if (code == EXIT_OK && s3_credentials_shared() == NULL)
        code = error_code();
    const char *parent = getenv("TMPDIR") != NULL && getenv("TMPDIR")[0] != '\0' ? getenv("TMPDIR")
                                                                                  : "/tmp";
    if (code == EXIT_OK)
        code = disk_space_check(parent, parent, bytes, bytes);
    if (code == EXIT_OK)
        code = staging_create(&publish->staging, parent, "s3-upload");
    if (code != EXIT_OK)
        s3_location_free(&publish->location);
    return code;
}

static uint64_t part_size(void)
{
    const char *text = getenv("FUEL_S3_PART_SIZE");
    if (text == NULL || text[0] == '\0')
        return S3_PART_DEFAULT;
    char *end;
    unsigned long long size = strtoull(text, &end, 10);
    return *end == '\0' && size >= PART_SIZE_MINIMUM ? size : S3_PART_DEFAULT;
}

int s3_publish_file(struct s3_publish *publish, const char *local_path, char *url, size_t size)
{
    const char *slash = strrchr(local_path, '/');
    char *key = s3_key_join(publish->location.key, slash != NULL ? slash + 1 : local_path);
    if (key == NULL)
        return error_code();
    struct sigaction action = {.sa_handler = interrupt_handler}, interrupt, terminate;
    sigemptyset(&action.sa_mask);
    upload_interrupted = 0;
    sigaction(SIGINT, &action, &interrupt);
    sigaction(SIGTERM, &action, &terminate);
    struct s3_upload_options options = {.part_size = part_size(),
                                        .parts_in_flight = publish->parts_in_flight,
                                        .cancel = &upload_interrupted};
    int code = s3_upload_file(s3_credentials_shared(), local_path, publish->location.bucket, key,
                              &options);
    sigaction(SIGINT, &interrupt, NULL);
    sigaction(SIGTERM, &terminate, NULL);
    if (code == EXIT_OK)
        snprintf(url, size, "s3://%s/%s", publish->location.bucket, key);
    free(key);
    return code;
}

int s3_publish_present(const struct s3_publish *publish, const char *name, bool *present,
                       char *url, size_t size)
{
    *present = false;
    char *key = s3_key_join(publish->location.key, name);
    if (key == NULL)
        return error_code();
    struct s3_call call = {.method = "HEAD", .bucket = publish->location.bucket, .key = key,
                           .query = "", .upload_descriptor = -1};
    struct s3_response head;
    int code = s3_call_perform(s3_credentials_shared(), &call, "cannot read", &head);
    if (code != EXIT_OK && head.status == 404) {
        code = EXIT_OK;
        error_clear();
    }
    *present = code == EXIT_OK && head.status == 200 && strlen(head.sha256) == 64;
    snprintf(url, size, "s3://%s/%s", publish->location.bucket, key);
    s3_response_free(&head);
    free(key);
    return code;
}

void s3_publish_end(struct s3_publish *publish)
{
    if (publish->staging.lock >= 0)
        staging_remove(&publish->staging);
    publish->staging.lock = -1;
    s3_location_free(&publish->location);
}
