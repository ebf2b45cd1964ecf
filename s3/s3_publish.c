/* Stages outputs bound for S3 on the local disk and uploads them, aborting on SIGINT/SIGTERM. */
#include "s3_publish.h"

#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "s3/s3_client.h"
#include "common/download/s3_credentials.h"
#include "s3/s3_listing.h"
#include "s3/s3_staged_tree.h"
#include "s3/s3_upload.h"

#include <limits.h>
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

/* The staging's parent: $TMPDIR, else /tmp. */
static const char *staging_parent(void)
{
    const char *parent = getenv("TMPDIR");
    return parent != NULL && parent[0] != '\0' ? parent : "/tmp";
}

/* A failure to write the staging: its message says where the staging was, the cause. */
static void staging_cause(void)
{
    char *message = strdup(error_message());
    if (message != NULL)
        error_set(error_code(), "%s (staged in TMPDIR %s)", message, staging_parent());
    free(message);
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
    const char *parent = staging_parent();
    char shown[PATH_MAX];
    if (code == EXIT_OK) {
        snprintf(shown, sizeof shown, "s3://%s/%s", publish->location.bucket,
                 publish->location.key);
        code = disk_space_check(parent, shown, bytes, bytes);
        if (code != EXIT_OK)
            staging_cause();
    }
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

/* SIGINT and SIGTERM while uploading set the flag the uploads check: they stop and abort. */
struct interruption {
    struct sigaction interrupt, terminate;
};

static void interruption_begin(struct interruption *saved)
{
    struct sigaction action = {.sa_handler = interrupt_handler};
    sigemptyset(&action.sa_mask);
    upload_interrupted = 0;
    sigaction(SIGINT, &action, &saved->interrupt);
    sigaction(SIGTERM, &action, &saved->terminate);
}

static void interruption_end(const struct interruption *saved)
{
    sigaction(SIGINT, &saved->interrupt, NULL);
    sigaction(SIGTERM, &saved->terminate, NULL);
}

/* Uploads LOCAL_PATH as PREFIX + NAME, its URL into URL. */
static int entry_upload(struct s3_publish *publish, const char *local_path, const char *name,
                        char *url, size_t size)
{
    char *key = s3_key_join(publish->location.key, name);
    if (key == NULL)
        return error_code();
    struct s3_upload_options options = {.part_size = part_size(),
                                        .parts_in_flight = publish->parts_in_flight,
                                        .cancel = &upload_interrupted};
    int code = upload_interrupted
                   ? error_set(EXIT_TRANSFER, "cannot upload: s3://%s/%s: interrupted",
                               publish->location.bucket, key)
                   : s3_upload_file(s3_credentials_shared(), local_path,
                                    publish->location.bucket, key, &options);
    if (code == EXIT_OK)
        snprintf(url, size, "s3://%s/%s", publish->location.bucket, key);
    free(key);
    return code;
}

int s3_publish_file(struct s3_publish *publish, const char *local_path, char *url, size_t size)
{
    const char *slash = strrchr(local_path, '/');
    struct interruption saved;
    interruption_begin(&saved);
    int code = entry_upload(publish, local_path, slash != NULL ? slash + 1 : local_path, url,
                            size);
    interruption_end(&saved);
    return code;
}

/* Deletes PREFIX + NAME; one that is not there is no failure. */
static int object_delete(const struct s3_publish *publish, const char *name)
{
    char *key = s3_key_join(publish->location.key, name);
    if (key == NULL)
        return error_code();
    struct s3_call call = {.method = "DELETE", .bucket = publish->location.bucket, .key = key,
                           .query = "", .upload_descriptor = -1};
    struct s3_response response;
    int code = s3_call_perform(s3_credentials_shared(), &call, "cannot replace", &response);
    if (code != EXIT_OK && response.status == 404) {
        code = EXIT_OK;
        error_clear();
    }
    s3_response_free(&response);
    free(key);
    return code;
}

static bool is_listing(char *const *listings, size_t count, const char *name)
{
    for (size_t index = 0; index < count; index++)
        if (strcmp(listings[index], name) == 0)
            return true;
    return false;
}

/* Uploads the staged file NAME (relative to the staging) under the prefix. */
static int staged_upload(struct s3_publish *publish, const char *name, char *url, size_t size)
{
    char path[8192];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", publish->staging.path, name) >= sizeof path)
        return error_set(EXIT_WRITE, "cannot upload: %s: path too long", name);
    return entry_upload(publish, path, name, url, size);
}

static int name_order(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

/* Deletes the objects below PREFIX + FOLDER + "/" that the new set (TREE, sorted) lacks. */
struct folder_sweep {
    const struct s3_publish *publish;
    const struct s3_staged_tree *tree;
};

static int folder_object_sweep(const struct s3_entry *entry, void *data)
{
    const struct folder_sweep *sweep = data;
    size_t length = strlen(sweep->publish->location.key);
    const char *name = entry->key + length;
    if (strncmp(entry->key, sweep->publish->location.key, length) != 0 ||
        bsearch(&name, sweep->tree->names, sweep->tree->count, sizeof *sweep->tree->names,
                name_order) != NULL)
        return EXIT_OK;
    return object_delete(sweep->publish, name);
}

/* Deletes the entries of the earlier set that the new one (TREE, sorted) lacks: an object of that
   name, and the objects below it as a folder (an image list's split) the new set does not hold. */
static int leftovers_delete(const struct s3_publish *publish, const struct s3_staged_tree *tree,
                            const struct s3_earlier_set *earlier)
{
    struct folder_sweep sweep = {publish, tree};
    int code = EXIT_OK;
    for (size_t index = 0; code == EXIT_OK && earlier != NULL && index < earlier->count; index++) {
        const char *name = earlier->names[index];
        if (bsearch(&name, tree->names, tree->count, sizeof *tree->names, name_order) != NULL)
            continue;
        code = object_delete(publish, name);
        char *folder = code == EXIT_OK ? s3_key_join(publish->location.key, name) : NULL;
        char *below = folder != NULL ? malloc(strlen(folder) + 2) : NULL;
        if (code == EXIT_OK && below == NULL)
            code = folder != NULL ? error_set(EXIT_OTHER, "out of memory") : error_code();
        else if (code == EXIT_OK)
            code = s3_list_objects(s3_credentials_shared(), publish->location.bucket,
                                   strcat(strcpy(below, folder), "/"), folder_object_sweep,
                                   &sweep);
        free(folder);
        free(below);
    }
    return code;
}

static int set_upload(struct s3_publish *publish, const struct s3_staged_tree *tree,
                      char *const *listings, size_t listing_count,
                      const struct s3_earlier_set *earlier, s3_published_visitor *published,
                      void *context)
{
    char url[S3_KEY_LIMIT + S3_BUCKET_SIZE + 16];
    int code = EXIT_OK;
    for (size_t index = 0; code == EXIT_OK && index < listing_count; index++)
        code = object_delete(publish, listings[index]);
    for (size_t index = 0; code == EXIT_OK && index < tree->count; index++)
        if (!is_listing(listings, listing_count, tree->names[index]))
            code = staged_upload(publish, tree->names[index], url, sizeof url);
    for (size_t index = 0; code == EXIT_OK && index < listing_count; index++) {
        code = staged_upload(publish, listings[index], url, sizeof url);
        if (code == EXIT_OK && published != NULL)
            published(url, context);
    }
    return code == EXIT_OK ? leftovers_delete(publish, tree, earlier) : code;
}

int s3_publish_set(struct s3_publish *publish, char *const *listings, size_t listing_count,
                   const struct s3_earlier_set *earlier, s3_published_visitor *published,
                   void *context)
{
    struct s3_staged_tree tree;
    int code = s3_staged_tree_list(&tree, publish->staging.path);
    if (code != EXIT_OK)
        return code;
    struct interruption saved;
    interruption_begin(&saved);
    code = set_upload(publish, &tree, listings, listing_count, earlier, published, context);
    interruption_end(&saved);
    s3_staged_tree_free(&tree);
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
    char staged[PATH_MAX + 1], url[PATH_MAX];
    snprintf(staged, sizeof staged, "%s/", publish->staging.path);
    if (publish->staging.lock >= 0 && error_code() != EXIT_OK &&
        strstr(error_message(), staged) != NULL) {
        /* A file of the staging failed: named as the object it was to be. */
        snprintf(url, sizeof url, "s3://%s/%s", publish->location.bucket, publish->location.key);
        error_path_replace(staged, url);
        staging_cause();
    }
    if (publish->staging.lock >= 0)
        staging_remove(&publish->staging);
    publish->staging.lock = -1;
    s3_location_free(&publish->location);
}
