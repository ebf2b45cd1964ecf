/* fuel-duplicates: the examples of equal values within each split, across splits and across
   files; exit 0 when there are none, 1 when some were found (so a CI job can gate on it). */
#include "common/base/error.h"
#include "common/h5py/h5py_input.h"
#include "cmd/file_resolve.h"
#include "duplicates/duplicates_plot.h"
#include "duplicates/duplicates_report.h"
#include "duplicates/near_groups.h"
#include "commands.h"
#include "stage_progress.h"
#include "threads_option.h"
#include "store_options.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct duplicates_options {
    const char *source, *labels, *plot;
    bool as_json, quiet, near;
    long threshold, threads;
    struct store_settings store;
};

#define MEMBER(name) .offset = offsetof(struct duplicates_options, name)

static const struct command_option options[] = {
    {.long_name = "source", .kind = OPTION_STRING, MEMBER(source), .argument = "S",
     .help = "the source compared (default: features, else encoded_images)"},
    {.long_name = "labels", .kind = OPTION_STRING, MEMBER(labels), .argument = "S",
     .help = "the label source shown with each example, \"\" for none (default: targets)"},
    {.long_name = "near", .kind = OPTION_FLAG, MEMBER(near),
     .help = "near-duplicate images: perceptual hashes within the threshold"},
    {.long_name = "threshold", .kind = OPTION_INTEGER, MEMBER(threshold), .argument = "BITS",
     .help = "--near: the most bits of 256 two hashes differ by (default: 26)", .minimum = 1,
     .maximum = NEAR_THRESHOLD_MAX},
    THREADS_OPTION(struct duplicates_options, threads,
                   "--near: the threads decoding, hashing and comparing images", USAGE_SHOWN),
    {.long_name = "plot", .kind = OPTION_STRING, MEMBER(plot), .argument = "FILE.png",
     .help = "draw each group's first member beside each other member, a pair a row",
     .completion = COMPLETE_FILE},
    {.long_name = "json", .kind = OPTION_FLAG, MEMBER(as_json),
     .help = "print one JSON object instead of text"},
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "no progress line"},
    STORE_OPTIONS(struct duplicates_options, store),
};

const struct command_line duplicates_command_line = {
    .description =
        "Finds the examples of equal values of one source (the same dtype, shape and bytes)\n"
        "within each split, across the splits of a file (train against test) and across files,\n"
        "and lists each group with split, position, label and class name, calling out groups\n"
        "whose labels differ. With --near, images (uint8 with a channel axis, or stored JPEG\n"
        "bytes) whose 256-bit perceptual hashes differ in at most BITS bits: re-encoded,\n"
        "brightened or slightly cropped copies. Exit 0 when none are found, 1 when some are.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct duplicates_options),
    .maximum_positionals = DUPLICATES_MAX_FILES,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME...",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static int json_print(const struct duplicates_request *request,
                      const struct duplicates_result *result)
{
    json_t *document = duplicates_json(request, result);
    int status = document == NULL ? error_set(EXIT_OTHER, "cannot report: out of memory")
                 : json_dumpf(document, stdout, JSON_INDENT(2)) != 0
                     ? error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno))
                     : EXIT_OK;
    json_decref(document);
    if (status == EXIT_OK && (putchar('\n') == EOF || fflush(stdout) != 0 || ferror(stdout)))
        status = error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return status;
}

/* FUEL_DUPLICATES_MEMORY_EXAMPLES: the digests held in memory before a sorted run is spilled, so
   that a test can make a few examples spill; unset or not a number, the default. */
static size_t memory_examples(void)
{
    const char *value = getenv("FUEL_DUPLICATES_MEMORY_EXAMPLES");
    char *end = NULL;
    unsigned long long count = value != NULL ? strtoull(value, &end, 10) : 0;
    return end != NULL && end != value && *end == '\0' && count <= SIZE_MAX ? (size_t)count : 0;
}

static int files_search(const struct duplicates_options *chosen, struct h5py_file *const *files,
                        size_t count)
{
    struct stage_progress drawn;
    const struct stage_listener *listener;
    stage_progress_begin(&drawn, chosen->quiet, &listener);
    struct duplicates_request request = {.files = files, .file_count = count,
                                         .source = chosen->source, .labels = chosen->labels,
                                         .listener = listener, .near = chosen->near,
                                         .memory_examples = memory_examples(),
                                         .threads = (unsigned)chosen->threads,
                                         .threshold = chosen->threshold > 0
                                                          ? (unsigned)chosen->threshold
                                                          : NEAR_THRESHOLD_DEFAULT};
    struct duplicates_result result;
    int status = duplicates_find(&request, &result);
    stage_progress_end(&drawn);
    if (status == EXIT_OK)
        status = chosen->as_json ? json_print(&request, &result)
                                 : duplicates_print_text(stdout, &request, &result);
    if (status == EXIT_OK && chosen->plot != NULL)
        status = duplicates_plot_write(&request, &result, chosen->plot);
    if (status == EXIT_OK && result.groups.group_count > 0)
        status = EXIT_OTHER; /* found: 1, with nothing on stderr, as fuel diff */
    duplicates_result_free(&result, count);
    return status;
}

int duplicates_body(const struct command_run *run)
{
    const struct parsed_arguments *parsed = run->parsed;
    store_settings_apply(&((const struct duplicates_options *)run->options)->store);
    struct h5py_file *files[DUPLICATES_MAX_FILES] = {NULL};
    size_t count = parsed->positional_count;
    int status = EXIT_OK;
    for (size_t index = 0; status == EXIT_OK && index < count; index++) {
        char path[PATH_MAX];
        status = file_resolve(parsed->positionals[index], path, sizeof path);
        if (status == EXIT_OK)
            status = h5py_input_open(&files[index], path);
    }
    if (status == EXIT_OK)
        status = files_search(run->options, files, count);
    for (size_t index = 0; index < count; index++)
        h5py_reader_close(files[index]);
    return status;
}
