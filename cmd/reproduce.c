/* fuel-reproduce: proves a file is what its provenance says, by making it again from the recorded
   inputs (found by their sha256) with the recorded command, options, name and creation time in a
   scratch directory, and comparing: the same bytes, the same content, or the diff. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"
#include "cmd/file_resolve.h"
#include "reproduce/reproduce_engine.h"
#include "s3/s3_input_find.h"
#include "commands.h"
#include "info_published.h"
#include "recorded_directories.h"
#include "reproduce_recipe.h"
#include "stage_progress.h"
#include "transfer_options.h"
#include "usage.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reproduce_options {
    struct option_list directories;
    bool download, allow_extra, recorded_directories;
    const char *scratch;
    struct transfer_settings transfer;
};

static const struct reproduce_options defaults = {.transfer = TRANSFER_SETTINGS_DEFAULT};

#define MEMBER(name) .offset = offsetof(struct reproduce_options, name)

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST, MEMBER(directories),
     .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "look for the inputs in DIR (or s3://BUCKET/PREFIX) first (may be given several "
             "times), then beside the file and in the data path"},
    {.long_name = "recorded-dirs", .kind = OPTION_FLAG, MEMBER(recorded_directories),
     .help = "look in the folders the file records its inputs were read from too (the -d of "
             "its conversion, its spec's folder); never without this option"},
    {.long_name = "download", .kind = OPTION_FLAG, MEMBER(download),
     .help = "fetch the inputs not found from the dataset's URLs, verified by their recorded "
             "sha256"},
    TRANSFER_URL_PREFIX_OPTION(struct reproduce_options, transfer, USAGE_INSIDE),
    {.long_name = "allow-extra", .kind = OPTION_FLAG, MEMBER(allow_extra),
     .help = "run the extra converter program the recorded command names"},
    {.long_name = "scratch", .kind = OPTION_STRING, MEMBER(scratch), .argument = "DIR",
     .completion = COMPLETE_DIRECTORY,
     .help = "where the re-run is made, and removed (default: $TMPDIR, else /tmp)"},
    TRANSFER_CONNECTION_OPTIONS(struct reproduce_options, transfer),
};

const struct command_line reproduce_command_line = {
    .description =
        "Makes FILE again from its provenance: each recorded input found by its sha256 (in DIR,\n"
        "beside FILE, in the data path; with --download, from the dataset's URLs), the recorded\n"
        "command re-run with its options, output name and creation time in a scratch directory,\n"
        "then compared. Exit 0: reproduced byte for byte, or the same content when only library\n"
        "versions differ; 1: it differs (the fuel-diff report), or an input changed; 3: an input\n"
        "is missing; 4: no fuel provenance, a malformed or hostile one. Nothing is left behind.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct reproduce_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

/* The file's fuel_provenance text (caller frees); "no fuel provenance" when it has none. */
static int provenance_load(const char *path, char **provenance)
{
    struct h5py_file *file = NULL;
    int result = h5py_reader_open(&file, path);
    *provenance = result == EXIT_OK ? h5py_file_attribute_take(file, "fuel_provenance") : NULL;
    if (result == EXIT_OK && *provenance == NULL)
        result = error_set(EXIT_CORRUPT_INPUT, "no fuel provenance: %s: no fuel_provenance "
                           "attribute (not written by fuel)", path);
    h5py_reader_close(file);
    return result;
}

/* Where the inputs are looked for: -d, beside the file, the data path, and with --recorded-dirs
   the folders the file records (caller frees the list). */
static const char **directories_list(const struct reproduce_options *chosen, char *beside,
                                     const struct recorded_directories *folders,
                                     const struct fuel_config *config, size_t *count)
{
    const char **list = calloc(chosen->directories.count + config->data_path.count +
                                   folders->count + 2,
                               sizeof *list);
    *count = 0;
    for (size_t index = 0; list != NULL && index < chosen->directories.count; index++)
        list[(*count)++] = chosen->directories.items[index];
    if (list != NULL)
        list[(*count)++] = dirname(beside);
    for (size_t index = 0; list != NULL && index < config->data_path.count; index++)
        list[(*count)++] = config->data_path.items[index];
    for (size_t index = 0; list != NULL && chosen->recorded_directories &&
                           index < folders->count; index++)
        list[(*count)++] = folders->items[index];
    return list;
}

/* The directories that are s3:// prefixes, and where their objects are copied. */
struct stored_search {
    const char *const *directories;
    size_t count;
    char local[PATH_MAX];
};

static int stored_find(void *context, const struct input_wanted *wanted,
                       struct input_search *search)
{
    const struct stored_search *stored = context;
    return s3_input_find(wanted, stored->directories, stored->count, stored->local, search);
}

/* How many of the first missing inputs the summary names. */
enum { MISSING_NAMED = 3 };

/* "N inputs not found: a, b, c, ...", then what would help: the folders the file records, and
   --download where it means something (a dataset's raw files) and was not given. */
static int missing_report(const struct command_run *run, const char *path,
                          const struct reproduce_outcome *outcome,
                          const struct reproduce_recipe *recipe,
                          const struct recorded_directories *folders, size_t missing)
{
    const struct reproduce_options *chosen = run->options;
    char *text = NULL;
    size_t length = 0;
    FILE *stream = open_memstream(&text, &length);
    if (stream == NULL)
        return error_set(EXIT_MISSING_INPUT, "cannot reproduce: %s: %zu inputs not found", path,
                         missing);
    size_t named = 0;
    for (size_t index = 0; index < outcome->input_count && named <= MISSING_NAMED; index++) {
        if (outcome->inputs[index].state != REPRODUCE_INPUT_MISSING)
            continue;
        if (named < MISSING_NAMED)
            fprintf(stream, "%s%s", named > 0 ? ", " : "", outcome->inputs[index].name);
        else
            fprintf(stream, ", ...");
        named++;
    }
    if (chosen->recorded_directories && folders->count > 0)
        fprintf(stream, "; not in the folders the file records either");
    else
        recorded_directories_hint(stream, folders);
    bool downloadable = recipe->making.kind == REPRODUCE_CONVERSION && !chosen->download;
    fprintf(stream, "%s", downloadable ? "; --download fetches a dataset's raw files" : "");
    fclose(stream);
    int result = error_set(EXIT_MISSING_INPUT, "cannot reproduce: %s: %zu input%s not found: %s",
                           path, missing, missing == 1 ? "" : "s", text != NULL ? text : "");
    free(text);
    return result;
}

/* One line per input changed, one summary of those not found; the exit code: 1 when one
   changed, else 3. */
static int inputs_report(const struct command_run *run, const char *path,
                         const struct reproduce_outcome *outcome,
                         const struct reproduce_recipe *recipe,
                         const struct recorded_directories *folders)
{
    size_t missing = 0, changed = 0;
    for (size_t index = 0; index < outcome->input_count; index++) {
        const struct reproduce_input *input = &outcome->inputs[index];
        if (input->state == REPRODUCE_INPUT_CHANGED)
            fprintf(stderr, "%s: input changed since the conversion: %s: %" PRIu64 " bytes%s%s; "
                    "recorded %" PRIu64 " bytes, sha256 %s\n", run->program, input->found->path,
                    input->found->size, input->found->sha256[0] != '\0' ? ", sha256 " : "",
                    input->found->sha256, input->size, input->sha256);
        missing += input->state == REPRODUCE_INPUT_MISSING;
        changed += input->state == REPRODUCE_INPUT_CHANGED;
    }
    if (changed > 0)
        return error_set(EXIT_OTHER, "not reproduced: %s: %zu input%s changed since the "
                         "conversion", path, changed, changed == 1 ? "" : "s");
    return missing_report(run, path, outcome, recipe, folders, missing);
}

static int outcome_report(const struct command_run *run, const char *path,
                          const struct reproduce_outcome *outcome,
                          const struct reproduce_recipe *recipe,
                          const struct recorded_directories *folders)
{
    const char *program = run->program;
    int result = EXIT_OK;
    for (size_t index = 0; index < outcome->input_count; index++)
        if (outcome->inputs[index].state == REPRODUCE_INPUT_DOWNLOADED &&
            outcome->inputs[index].searched == INPUT_SEARCH_CHANGED)
            fprintf(stderr, "%s: input changed since the conversion: %s: the recorded one was "
                    "downloaded instead\n", program, outcome->inputs[index].found->path);
    switch (outcome->verdict) {
    case REPRODUCE_INPUTS_MISSING: return inputs_report(run, path, outcome, recipe, folders);
    case REPRODUCE_BYTES: printf("reproduced byte for byte: %s\n", path); break;
    case REPRODUCE_VERSIONS:
        printf("content identical, bytes differ (%s): %s\n", outcome->versions, path);
        break;
    case REPRODUCE_BYTES_DIFFER:
    case REPRODUCE_CONTENT_DIFFERS:
        result = content_diff_print_text(stdout, &outcome->report);
        if (result == EXIT_OK)
            result = error_set(EXIT_OTHER, "not reproduced: %s: %s", path,
                               outcome->verdict == REPRODUCE_CONTENT_DIFFERS
                                   ? "its content differs from the re-run's"
                               : outcome->report.provenance_count > 0
                                   ? "the same content, other bytes, and more than the "
                                     "versions differ in the provenance"
                                   : "the same content and provenance, other HDF5 bytes "
                                     "(rewritten by another program since it was made?)");
    }
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return result;
}

/* Reproduced from the inputs found: fuel-info's verdict on them (info_published.h), on stderr. */
static void verdict_print(const char *provenance)
{
    char *line = info_inputs_sentence(provenance);
    if (line != NULL)
        fprintf(stderr, "%s\n", line);
    free(line);
}

static int reproduce_file(const struct command_run *run, const char *path, const char *provenance,
                          const struct fuel_config *config)
{
    const struct reproduce_options *chosen = run->options;
    struct reproduce_recipe recipe;
    struct reproduce_outcome outcome = {0};
    char beside[PATH_MAX];
    snprintf(beside, sizeof beside, "%s", path);
    const char *scratch = chosen->scratch != NULL ? chosen->scratch : getenv("TMPDIR");
    struct reproduce_request request = {
        .file = path, .provenance = provenance,
        .scratch_parent = scratch != NULL && scratch[0] != '\0' ? scratch : "/tmp",
        .download = chosen->download, .url_prefix = chosen->transfer.url_prefix,
        .config = config};
    int result = reproduce_recipe_read(path, provenance, chosen->allow_extra, &recipe);
    struct recorded_directories folders = {0};
    if (result == EXIT_OK)
        recorded_directories_read(provenance, &folders);
    const char **directories =
        result == EXIT_OK
            ? directories_list(chosen, beside, &folders, config, &request.directory_count)
            : NULL;
    request.directories = directories;
    struct stored_search stored = {directories, request.directory_count, ""};
    local_copies_directory(config, stored.local, sizeof stored.local);
    request.find_stored = stored_find;
    request.find_context = &stored;
    if (result == EXIT_OK && directories == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK) {
        recipe.quiet = chosen->transfer.quiet;
        reproduce_recipe_request(&recipe, &request);
        transfer_settings_apply(&chosen->transfer, &request.download_options);
        struct stage_progress drawn;
        stage_progress_begin(&drawn, chosen->transfer.quiet, &request.listener);
        result = reproduce_run(&request, &outcome);
        stage_progress_end(&drawn);
    }
    if (result == EXIT_OK && !chosen->transfer.quiet &&
        (outcome.verdict == REPRODUCE_BYTES || outcome.verdict == REPRODUCE_VERSIONS))
        verdict_print(provenance);
    if (result == EXIT_OK && !chosen->recorded_directories)
        recorded_directories_drop_searched(&folders, directories, request.directory_count);
    if (result == EXIT_OK)
        result = outcome_report(run, path, &outcome, &recipe, &folders);
    recorded_directories_free(&folders);
    reproduce_outcome_free(&outcome);
    reproduce_recipe_free(&recipe);
    free(directories);
    return result;
}

int reproduce_body(const struct command_run *run)
{
    const struct reproduce_options *chosen = run->options;
    if (chosen->transfer.url_prefix != NULL && !chosen->download)
        return usage_error(run->program, "--url-prefix goes with --download");
    char path[PATH_MAX], *provenance = NULL;
    struct fuel_config config = {0};
    int result = file_resolve(run->parsed->positionals[0], path, sizeof path);
    if (result == EXIT_OK)
        result = provenance_load(path, &provenance);
    if (result == EXIT_OK)
        result = config_load(&config);
    if (result == EXIT_OK)
        result = reproduce_file(run, path, provenance, &config);
    free(provenance);
    config_free(&config);
    return result;
}
