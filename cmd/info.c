/* fuel-info: what an H5PYDataset file holds: Fuel's metadata block, splits, sources, provenance. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "cmd/fault_guard.h"
#include "common/h5py/h5py_input.h"
#include "cmd/file_resolve.h"
#include "common/h5py/h5py_reader.h"
#include "commands.h"
#include "downloaders/dataset_registry.h"
#include "info_check.h"
#include "info_digest.h"
#include "info_json.h"
#include "info_summary.h"
#include "shown_text.h"
#include "info_text.h"
#include "usage.h"
#include "store_options.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct info_options {
    bool as_json, check_invariants, verify_inputs, recorded_directories;
    struct option_list directories;
    struct store_settings store;
};

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .offset = offsetof(struct info_options, as_json),
     .help = "print JSON instead of text (an array for several files)"},
    {.long_name = "check", .kind = OPTION_FLAG,
     .offset = offsetof(struct info_options, check_invariants),
     .help = "check the H5PYDataset invariants; exit 4 with one line per violation"},
    {.long_name = "verify-inputs", .kind = OPTION_FLAG,
     .offset = offsetof(struct info_options, verify_inputs),
     .help = "re-hash the raw inputs the provenance names (beside the file or in the data path): "
             "each matching, different (exit 6) or missing (exit 3)"},
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST,
     .offset = offsetof(struct info_options, directories), .argument = "DIR",
     .help = "with --verify-inputs: look for the inputs in DIR first (may be given several "
             "times)",
     .completion = COMPLETE_DIRECTORY, .usage = USAGE_INSIDE},
    {.long_name = "recorded-dirs", .kind = OPTION_FLAG,
     .offset = offsetof(struct info_options, recorded_directories),
     .help = "with --verify-inputs: look in the folders the file records its inputs were read "
             "from too (never without this option)", .usage = USAGE_INSIDE},
    STORE_OPTIONS(struct info_options, store),
};

const struct command_line info_command_line = {
    .description =
        "Prints what an H5PYDataset HDF5 file holds: the command and versions that made it, its\n"
        "splits and sources, and its provenance. A NAME that is not an existing file is looked up\n"
        "in the data path (FUEL_DATA_PATH or data_path in ~/.fuelrc). Given several files, prints\n"
        "one line per file: name, dataset, splits with their counts, the dtype of each source,\n"
        "creation time, and \"fixture\" when fuel-fixture made it.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct info_options),
    .maximum_positionals = (size_t)-1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME...",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static int output_flush(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return 0;
}

/* Opens NAME (a path, or a name in the data path). HDF5's faults are reported as damage from
   here until info_close, as the checks read the file's data too. */
static int info_open(const char *program, const char *name, struct h5py_file **file)
{
    char path[PATH_MAX];
    int result = file_resolve(name, path, sizeof path);
    if (result != 0)
        return result;
    fault_guard_set(program, path);
    result = h5py_reader_open(file, path);
    if (result != 0)
        fault_guard_clear();
    return result;
}

static void info_close(struct h5py_file *file)
{
    h5py_reader_close(file);
    fault_guard_clear();
}

/* The checks' verdict on FILE, kept aside (code and message) while the file is described. */
struct verdict {
    int code;
    char message[2048];
};

static void verdict_take(const struct h5py_file *file, struct verdict *verdict)
{
    verdict->code = h5py_input_verdict(file);
    snprintf(verdict->message, sizeof verdict->message, "%s", error_message());
    error_clear();
}

/* RESULT, else the verdict's failure. */
static int verdict_give(int result, const struct verdict *verdict)
{
    if (result != 0 || verdict->code == 0)
        return result;
    return error_set(verdict->code, "%s", verdict->message);
}

static int info_run(const char *program, const char *name, bool as_json)
{
    struct h5py_file *file = NULL;
    int result = info_open(program, name, &file);
    if (result != 0)
        return result;
    const char *base = basename(file->path);
    struct verdict verdict;
    struct info_digest digest;
    verdict_take(file, &verdict);
    result = info_digest_compute(file, verdict.code == 0, &digest);
    if (result == 0)
        result = as_json ? info_json_print(file, base, &digest)
                         : info_text_print(file, base, &digest);
    if (result == 0)
        result = output_flush();
    info_digest_free(&digest);
    info_close(file);
    return verdict_give(result, &verdict);
}

/* Several files, --check, --verify-inputs. */
struct info_request {
    bool as_json;
    struct info_check_request check;
    const char *const *names;
    size_t count;
};

/* One file of several: its summary, or its check report, into TABLE or DOCUMENT. */
static int info_one(const char *program, const struct info_request *request, const char *name,
                    struct table *table, json_t *document)
{
    struct h5py_file *file = NULL;
    int result = info_open(program, name, &file);
    if (result != 0)
        return result;
    bool checking = request->check.invariants || request->check.inputs;
    json_t *report = NULL;
    if (checking && request->as_json)
        report = json_pack("{s:s}", "file", file->path);
    struct verdict verdict = {0};
    struct info_digest digest = {0};
    if (!checking) {
        verdict_take(file, &verdict);
        result = info_digest_compute(file, verdict.code == 0, &digest);
    }
    if (checking)
        result = info_check_file(file, &request->check, report);
    else if (result == 0 && request->as_json)
        report = info_summary_json(file, &digest);
    else if (result == 0)
        result = info_summary_add(table, file, &digest);
    info_digest_free(&digest);
    if (!checking)
        result = verdict_give(result, &verdict);
    if (report != NULL) {
        if (checking)
            json_object_set_new(report, "ok", json_boolean(result == 0));
        json_array_append_new(document, report);
    }
    info_close(file);
    return result;
}

static int document_print(json_t *document, bool single)
{
    json_t *shown = single ? json_array_get(document, 0) : document;
    if (shown == NULL)
        return 0;
    if (json_dumpf(shown, stdout, JSON_INDENT(2)) != 0)
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    putchar('\n');
    return 0;
}

/* Every file is reported, a failure printed as it happens; the first failure's code is kept. */
static int info_several(const char *program, const struct info_request *request)
{
    struct table table = {.columns = INFO_SUMMARY_COLUMNS};
    json_t *document = json_array();
    int first_failure = 0;
    for (size_t index = 0; index < request->count; index++) {
        error_clear();
        int result = info_one(program, request, request->names[index], &table, document);
        fflush(stdout);
        if (result != 0)
            error_print(program);
        if (first_failure == 0)
            first_failure = result;
    }
    error_clear();
    int result = request->as_json ? document_print(document, request->count == 1) : 0;
    if (!request->as_json)
        table_print(&table, stdout);
    if (result == 0)
        result = output_flush();
    table_free(&table);
    json_decref(document);
    if (result != 0 && first_failure != 0) {
        error_print(program);
        error_clear();
    }
    return first_failure != 0 ? first_failure : result;
}

static int info_request_run(const char *program, const struct info_request *request)
{
    if (request->count > 1 || request->check.invariants || request->check.inputs)
        return info_several(program, request);
    return info_run(program, request->names[0], request->as_json);
}

/* The datasets the extra downloaders' manifests declare, known as download knows them, so the
   verdict on a file's inputs is the same; without them (a config or a manifest that cannot be
   read, which says so where it matters) the built-ins alone. */
static void extra_datasets_load(struct fuel_config *config)
{
    if (config_load(config) != EXIT_OK ||
        dataset_registry_load(config->extra_downloaders.items,
                              config->extra_downloaders.count) != EXIT_OK) {
        dataset_registry_free();
        error_clear();
    }
}

static int info_run_knowing_extras(const struct command_run *run,
                                   const struct info_request *request)
{
    struct fuel_config config = {0};
    extra_datasets_load(&config);
    int result = info_request_run(run->program, request);
    dataset_registry_free();
    config_free(&config);
    return result;
}

int info_body(const struct command_run *run)
{
    const struct info_options *options = run->options;
    store_settings_apply(&options->store);
    struct info_request request = {
        .as_json = options->as_json,
        .check = {.invariants = options->check_invariants,
                  .inputs = options->verify_inputs,
                  .directories = options->directories.items,
                  .directory_count = options->directories.count,
                  .recorded_directories = options->recorded_directories},
        .names = run->parsed->positionals,
        .count = run->parsed->positional_count,
    };
    if (options->directories.count > 0 && !options->verify_inputs)
        return usage_error(run->program, "-d goes with --verify-inputs");
    if (options->recorded_directories && !options->verify_inputs)
        return usage_error(run->program, "--recorded-dirs goes with --verify-inputs");
    if (request.as_json)
        return info_run_knowing_extras(run, &request);
    /* The text goes to the terminal: what the file recorded is shown escaped. */
    FILE *terminal = stdout, *shown = shown_text_open(terminal);
    if (shown == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    stdout = shown;
    int result = info_run_knowing_extras(run, &request);
    stdout = terminal;
    if (fclose(shown) != 0 && result == 0)
        result = error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return result == 0 ? output_flush() : result;
}
