/* fuel-reproduce: proves a file is what its provenance says, by making it again from the recorded
   inputs (found by their sha256) with the recorded command, options, name and creation time in a
   scratch directory, and comparing: the same bytes, the same content, or the diff. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"
#include "cmd/file_resolve.h"
#include "reproduce/reproduce_engine.h"
#include "commands.h"
#include "info_published.h"
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
    bool download, allow_extra;
    const char *scratch;
    struct transfer_settings transfer;
};

static const struct reproduce_options defaults = {.transfer = TRANSFER_SETTINGS_DEFAULT};

#define MEMBER(name) .offset = offsetof(struct reproduce_options, name)

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST, MEMBER(directories),
     .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "look for the inputs in DIR first (may be given several times), then beside the "
             "file and in the data path"},
    {.long_name = "download", .kind = OPTION_FLAG, MEMBER(download),
     .help = "fetch the inputs not found from the dataset's URLs, verified by their recorded "
             "sha256"},
    {.long_name = "allow-extra", .kind = OPTION_FLAG, MEMBER(allow_extra),
     .help = "run the extra converter program the recorded command names"},
    {.long_name = "scratch", .kind = OPTION_STRING, MEMBER(scratch), .argument = "DIR",
     .completion = COMPLETE_DIRECTORY,
     .help = "where the re-run is made, and removed (default: $TMPDIR, else /tmp)"},
    TRANSFER_URL_PREFIX_OPTION(struct reproduce_options, transfer),
    TRANSFER_CONNECTION_OPTIONS(struct reproduce_options, transfer),
};

const struct command_line reproduce_command_line = {
    .usage = "[-h] [-d DIR]... [--download [--url-prefix P]] [--allow-extra] [--scratch DIR] "
             "[-q] FILE|NAME",
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
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

/* The file's fuel_provenance text (caller frees); "no fuel provenance" when it has none. */
static int provenance_load(const char *path, char **provenance)
{
    struct h5py_file *file = NULL;
    int result = h5py_reader_open(&file, path);
    const char *text = result == EXIT_OK ? h5py_file_attribute(file, "fuel_provenance") : NULL;
    if (result == EXIT_OK && text == NULL)
        result = error_set(EXIT_CORRUPT_INPUT, "no fuel provenance: %s: no fuel_provenance "
                           "attribute (not written by fuel)", path);
    if (result == EXIT_OK && (*provenance = strdup(text)) == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    h5py_reader_close(file);
    return result;
}

/* Where the inputs are looked for: -d, beside the file, the folder of a packed file's spec as
   recorded (SPEC_FOLDER, empty for other files), the data path (caller frees the list). */
static const char **directories_list(const struct reproduce_options *chosen, char *beside,
                                     const char *spec_folder, const struct fuel_config *config,
                                     size_t *count)
{
    const char **list = calloc(chosen->directories.count + config->data_path.count + 3,
                               sizeof *list);
    *count = 0;
    for (size_t index = 0; list != NULL && index < chosen->directories.count; index++)
        list[(*count)++] = chosen->directories.items[index];
    if (list != NULL)
        list[(*count)++] = dirname(beside);
    if (list != NULL && spec_folder[0] != '\0')
        list[(*count)++] = spec_folder;
    for (size_t index = 0; list != NULL && index < config->data_path.count; index++)
        list[(*count)++] = config->data_path.items[index];
    return list;
}

/* One line per input not found or changed; the exit code: 1 when one changed, else 3. */
static int inputs_report(const char *program, const char *path,
                         const struct reproduce_outcome *outcome)
{
    size_t missing = 0, changed = 0;
    for (size_t index = 0; index < outcome->input_count; index++) {
        const struct reproduce_input *input = &outcome->inputs[index];
        if (input->state == REPRODUCE_INPUT_MISSING)
            fprintf(stderr, "%s: input not found: %s: %" PRIu64 " bytes, sha256 %s\n", program,
                    input->name, input->size, input->sha256);
        else if (input->state == REPRODUCE_INPUT_CHANGED)
            fprintf(stderr, "%s: input changed since the conversion: %s: %" PRIu64 " bytes, "
                    "sha256 %s; recorded %" PRIu64 " bytes, sha256 %s\n", program,
                    input->path, input->found_size, input->found_sha256, input->size,
                    input->sha256);
        missing += input->state == REPRODUCE_INPUT_MISSING;
        changed += input->state == REPRODUCE_INPUT_CHANGED;
    }
    if (changed > 0)
        return error_set(EXIT_OTHER, "not reproduced: %s: %zu input%s changed since the "
                         "conversion", path, changed, changed == 1 ? "" : "s");
    return error_set(EXIT_MISSING_INPUT, "cannot reproduce: %s: %zu input%s not found (give -d "
                     "DIR, or --download)", path, missing, missing == 1 ? "" : "s");
}

static int outcome_report(const char *program, const char *path,
                          const struct reproduce_outcome *outcome)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < outcome->input_count; index++)
        if (outcome->inputs[index].state == REPRODUCE_INPUT_DOWNLOADED &&
            outcome->inputs[index].searched == INPUT_SEARCH_CHANGED)
            fprintf(stderr, "%s: input changed since the conversion: %s: the recorded one was "
                    "downloaded instead\n", program, outcome->inputs[index].path);
    switch (outcome->verdict) {
    case REPRODUCE_INPUTS_MISSING: return inputs_report(program, path, outcome);
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

/* The folder of the spec path a packed file records (relative to where fuel pack ran). */
static void spec_folder_of(const char *spec, char *folder, size_t size)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", spec);
    snprintf(folder, size, "%s", dirname(copy));
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
    char spec_folder[PATH_MAX] = "";
    if (result == EXIT_OK && recipe.kind == RECIPE_PACK)
        spec_folder_of(recipe.run->parsed->positionals[0], spec_folder, sizeof spec_folder);
    const char **directories =
        result == EXIT_OK
            ? directories_list(chosen, beside, spec_folder, config, &request.directory_count)
            : NULL;
    request.directories = directories;
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
    if (result == EXIT_OK)
        result = outcome_report(run->program, path, &outcome);
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
