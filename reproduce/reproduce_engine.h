/* fuel-reproduce's engine: finds the inputs a file's provenance records by their sha256 (or
   downloads them from its dataset's URLs, verified by that sha256), has the recorded command made
   again in a staging directory, with the recorded creation time, by a maker the command layer
   gives (it parsed the recorded argv with the command's own option table), and compares the result
   with the file: byte for byte, else by content (content_diff.h). The staging is removed whatever
   the outcome. */
#ifndef FUEL_REPRODUCE_ENGINE_H
#define FUEL_REPRODUCE_ENGINE_H

#include "common/base/config.h"
#include "common/base/input_find.h"
#include "common/download/download_run.h"
#include "diff/content_diff.h"
#include "downloaders/dataset.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The staging: SCRATCH_PARENT/.fuel-staging-reproduce.XXXXXX, holding inputs/ and output/. */
#define REPRODUCE_STAGING_NAME "reproduce"

/* Makes the file again: INPUT_DIRECTORY holds the recorded inputs under their recorded names
   (relative paths from it with relative_names), OUTPUT_DIRECTORY (existing) is where to publish
   it; its path into PATH. */
typedef int reproduce_make_function(void *context, const char *input_directory,
                                    const char *output_directory, char *path, size_t size);

struct reproduce_request {
    const char *file;       /* the file to reproduce */
    const char *provenance; /* its fuel_provenance text */
    reproduce_make_function *make;
    void *context;
    bool inputs_made; /* the maker writes the inputs itself (a synthetic fixture): none looked for */
    /* The inputs are named by paths relative to the first one's folder (fuel pack's spec and
       what it names), "../" leading ones too: placed in the staging as deep as they climb. */
    bool relative_names;
    const char *const *directories; /* where the inputs are looked for, in order */
    size_t directory_count;
    /* Looks for an input the directories lack in those that are s3:// prefixes, FOUND with a
       local copy (the command layer gives s3's search); NULL: none is. */
    int (*find_stored)(void *context, const struct input_wanted *wanted,
                       struct input_search *search);
    void *find_context;
    const char *scratch_parent;
    /* --download: the inputs not found by their sha256 are fetched from DATASET's URLs (or
       URL_PREFIX, the config's mirrors) with DOWNLOAD_OPTIONS; DATASET NULL: none can be. */
    bool download;
    const struct dataset *dataset;
    const char *url_prefix;
    const struct fuel_config *config;
    struct download_options download_options;
    /* Told the inputs looked for, then the examples compared (NULL: nobody). */
    const struct stage_listener *listener;
};

enum reproduce_input_state {
    REPRODUCE_INPUT_FOUND,
    REPRODUCE_INPUT_DOWNLOADED,
    REPRODUCE_INPUT_CHANGED, /* not found; a file of its name holds other bytes */
    REPRODUCE_INPUT_MISSING,
};

/* What an input's search found: FOUND, the file; CHANGED, the file of its name, its size and
   sha256 (empty when unread), in one allocation sized by the path. */
struct reproduce_found {
    uint64_t size;
    char sha256[HASH_HEX_SIZE];
    char path[];
};

/* One recorded input: 104 bytes and its strings (a million inputs may be recorded). */
struct reproduce_input {
    char *name;
    struct reproduce_found *found; /* NULL when the search found nothing */
    uint64_t size;
    enum reproduce_input_state state;
    enum input_search_state searched;
    char sha256[HASH_HEX_SIZE];
};

enum reproduce_verdict {
    REPRODUCE_INPUTS_MISSING,  /* an input missing or changed: nothing was made */
    REPRODUCE_BYTES,           /* the same bytes */
    REPRODUCE_VERSIONS,        /* the same content; only the recorded versions differ */
    REPRODUCE_BYTES_DIFFER,    /* the same content, other bytes, not only versions */
    REPRODUCE_CONTENT_DIFFERS,
};

struct reproduce_outcome {
    enum reproduce_verdict verdict;
    struct reproduce_input *inputs; /* the recorded inputs, in order (none when made) */
    size_t input_count;
    char versions[1024]; /* REPRODUCE_VERSIONS: "hdf5 1.10.8 then, 1.12.2 now; ..." */
    /* REPRODUCE_BYTES_DIFFER and REPRODUCE_CONTENT_DIFFERS: the file (left) against the re-run
       (right, named "the re-run": its staging is gone). */
    struct content_diff_report report;
};

/* Reproduces REQUEST's file into OUTCOME (freed with reproduce_outcome_free, also after a
   failure). EXIT_CORRUPT_INPUT for a provenance whose inputs or created are malformed, or whose
   input names would leave the staging; EXIT_WRITE when the staging cannot be made; a download's
   or the maker's error; the file's when it cannot be read. */
int reproduce_run(const struct reproduce_request *request, struct reproduce_outcome *outcome);

void reproduce_outcome_free(struct reproduce_outcome *outcome);

/* The seconds since the epoch of a provenance's "created" (YYYY-MM-DDTHH:MM:SSZ, UTC); -1 when
   CREATED is not of that form. */
int64_t reproduce_created_seconds(const char *created);

#endif
