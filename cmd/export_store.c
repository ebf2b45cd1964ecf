/* Exports to s3://: staged locally, the earlier sets read from their listings in the bucket as a
   local export reads its own (exporters/set_listing.c), then published whole. */
#include "export_store.h"

#include "common/base/error.h"
#include "exporters/set_listing.h"
#include "s3/s3_earlier_set.h"
#include "s3/s3_publish.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The listings (or main files) of the sets exported into a staging bound for S3, relative to it,
   and the sets' labels. */
struct store_listings {
    const char *staging;
    char **names, **labels;
    size_t count;
    int code;
};

static char *text_copy(const char *text, int *code)
{
    char *copy = strdup(text);
    if (copy == NULL)
        *code = error_set(EXIT_OTHER, "out of memory");
    return copy;
}

static void listing_remember(const char *path, const char *label, void *context)
{
    struct store_listings *listings = context;
    size_t length = strlen(listings->staging), count = listings->count;
    const char *name = strncmp(path, listings->staging, length) == 0 && path[length] == '/'
                           ? path + length + 1 : path;
    char **names = realloc(listings->names, (count + 1) * sizeof *names);
    listings->names = names != NULL ? names : listings->names;
    char **labels = realloc(listings->labels, (count + 1) * sizeof *labels);
    listings->labels = labels != NULL ? labels : listings->labels;
    if (names == NULL || labels == NULL) {
        listings->code = error_set(EXIT_OTHER, "out of memory");
        return;
    }
    names[count] = text_copy(name, &listings->code);
    labels[count] = text_copy(label, &listings->code);
    listings->count++;
}

static void print_url(const char *url, void *context)
{
    (void)context;
    printf("%s\n", url);
    fflush(stdout);
}

/* The listings a set LABEL may have left in the bucket copied into COPIES (a directory, also
   open as DIRECTORY), then read: LABEL.provenance.json, LABEL.json, and an hdf5-layer list
   LABEL.txt (not fetched beside a JSON listing: an image list names no entry). */
static int earlier_set_read(const struct s3_publish *publish, const char *copies, int directory,
                            const char *label, struct s3_earlier_set *earlier)
{
    static const char *const suffixes[] = {".provenance.json", ".json", ".txt"};
    bool listed = false, found;
    int code = EXIT_OK;
    for (size_t index = 0; code == EXIT_OK && index < 3 && !(index == 2 && listed); index++) {
        char name[1100];
        snprintf(name, sizeof name, "%s%s", label, suffixes[index]);
        code = s3_earlier_listing_copy(publish->location.bucket, publish->location.key, name,
                                       copies, &found);
        listed = listed || found;
    }
    struct set_manifest record = {0};
    if (code == EXIT_OK)
        code = set_listing_read(directory, label, &record);
    for (size_t index = 0; code == EXIT_OK && index < record.count; index++)
        code = s3_earlier_set_add(earlier, record.entries[index].name);
    set_manifest_free(&record);
    return code;
}

/* Every set's earlier entries, read into a hidden folder of the staging (never uploaded). */
static int earlier_sets_read(const struct s3_publish *publish,
                             const struct store_listings *listings, struct s3_earlier_set *earlier)
{
    char copies[PATH_MAX + 32];
    snprintf(copies, sizeof copies, "%s/.earlier-listings", publish->staging.path);
    if (mkdir(copies, 0700) != 0)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", copies, strerror(errno));
    int directory = open(copies, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0)
        return error_set(EXIT_WRITE, "cannot read: %s: %s", copies, strerror(errno));
    int code = EXIT_OK;
    for (size_t index = 0; code == EXIT_OK && index < listings->count; index++)
        code = earlier_set_read(publish, copies, directory, listings->labels[index], earlier);
    close(directory);
    return code;
}

int export_to_store(struct export_request *request)
{
    struct s3_publish publish;
    int result = s3_publish_begin(&publish, request->directory, 0, request->threads);
    if (result != EXIT_OK)
        return result;
    struct store_listings listings = {.staging = publish.staging.path};
    struct s3_earlier_set earlier = {0};
    request->published_directory = request->directory;
    request->directory = publish.staging.path;
    result = export_run(request, listing_remember, &listings);
    if (result == EXIT_OK)
        result = listings.code;
    if (result == EXIT_OK)
        result = earlier_sets_read(&publish, &listings, &earlier);
    if (result == EXIT_OK)
        result = s3_publish_set(&publish, listings.names, listings.count, &earlier, print_url,
                                NULL);
    for (size_t index = 0; index < listings.count; index++) {
        free(listings.names[index]);
        free(listings.labels[index]);
    }
    free(listings.names);
    free(listings.labels);
    s3_earlier_set_free(&earlier);
    s3_publish_end(&publish);
    return result;
}
