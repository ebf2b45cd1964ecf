/* fuel-fetch: download a dataset, convert it and remove the raw files, into the data path. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "converters/conversion.h"
#include "converters/registry.h"
#include "downloaders/download_items.h"
#include "converters/extra_conversion.h"
#include "commands.h"
#include "conversion_progress.h"
#include "dataset_arguments.h"
#include "threads_option.h"
#include "transfer_options.h"
#include "usage.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char program[] = "fuel-fetch";

static const char *directory_given;
static bool keep_raw, force, as_json;
static long threads;
static struct transfer_settings transfer = TRANSFER_SETTINGS_DEFAULT;

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING,
     .value = &directory_given, .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "where the files go (default: the first writable data path directory)"},
    {.long_name = "keep-raw", .kind = OPTION_FLAG, .value = &keep_raw,
     .help = "keep the raw files after converting"},
    {.long_name = "force", .kind = OPTION_FLAG, .value = &force,
     .help = "make the file again even when it is there and passes the check (raw files "
             "present and verified are used again)"},
    {.long_name = "json", .kind = OPTION_FLAG, .value = &as_json,
     .help = "print {\"name\", \"path\", \"fetched\"}"},
    THREADS_OPTION(threads, "worker threads of the conversion"),
    TRANSFER_OPTIONS(transfer),
};

const struct command_line fetch_command_line = {
    .program = program,
    .usage = "[-h] NAME [FORMAT] [DATASET OPTIONS] [--keep-raw] [--force] [-d DIR] [options]",
    .description =
        "Downloads the raw files of NAME, converts them and removes them, leaving the HDF5 file in\n"
        "DIR or else in the first writable directory of the data path. When the converted file is\n"
        "already there and passes fuel-info --check, does nothing and says so. Prints the file's\n"
        "path.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = (size_t)-1,
    .positional_completion = COMPLETE_DATASET,
    .pass_unknown = true,
};

static const char dataset_options_help[] =
    "DATASET OPTIONS are those of fuel-convert NAME -h, e.g. mnist --dtype float32; an extra\n"
    "converter (extra_converters) gets FORMAT and them as typed, each option with a value.\n";

/* A violation of the H5PYDataset rules in an extra converter's file, one line. */
static void violation_print(const char *line)
{
    fprintf(stderr, "%s: %s\n", program, line);
}

struct fetch_request {
    struct dataset_arguments dataset;
    const struct parsed_arguments *parsed;
    const struct typed_command *typed;
    const struct dataset *record; /* the dataset NAME [FORMAT] names */
    const struct extra_converter *extra; /* when NAME has no built-in converter */
    struct extra_converters extras;
    struct conversion_request conversion; /* of the built-in converter */
    struct download_options options;
};

/* The dataset and converter of NAME [FORMAT], and the dataset options given. */
static int dataset_resolve(struct fetch_request *request)
{
    const char *name = request->dataset.name, *format = request->dataset.format;
    switch (dataset_find(name, format, &request->record)) {
    case DATASET_FOUND:
        break;
    case DATASET_FORMAT_UNKNOWN:
        return usage_error(program, "unknown format: %s", format);
    case DATASET_FORMAT_MISSING:
        return usage_error(program, "%s needs a format: none given", name);
    default:
        return usage_error(program, "unknown dataset: %s", name);
    }
    if (!dataset_converts(request->record))
        request->extra = extra_converter_find(&request->extras, name);
    if (request->extra != NULL)
        return EXIT_OK;
    if (!dataset_converts(request->record))
        return usage_error(program, "no converter for this dataset: %s", name);
    conversion_request_init(&request->conversion, request->record);
    request->conversion.threads = (unsigned)threads;
    request->conversion.typed = request->typed;
    return dataset_options_apply(program, request->parsed, &request->conversion);
}

static int output_directory_choose(const struct fetch_request *request,
                                   const struct fuel_config *config, const char **directory)
{
    if (directory_given != NULL) {
        *directory = directory_given;
        return directory_create(directory_given);
    }
    *directory = data_path_writable(config);
    if (*directory != NULL)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "no writable directory in the data path: %s: give -d DIR, or "
                     "set data_path in ~/.fuelrc or FUEL_DATA_PATH", request->dataset.name);
}

static int raw_download(const struct fetch_request *request, const struct fuel_config *config,
                        const char *directory)
{
    struct item_table table = {0};
    int result = item_table_build(&table, request->record, transfer.url_prefix, config,
                                  transfer.checksums);
    struct download_options options = request->options;
    options.directory = directory;
    if (result == EXIT_OK)
        result = download_run(table.items, table.count, &options);
    item_table_free(&table);
    return result;
}

/* An extra converter run on DIRECTORY with FORMAT and the dataset options as typed, as
   fuel-convert NAME [FORMAT] OPTIONS would run it. */
static int extra_convert(const struct fetch_request *request, const char *directory, char *path,
                         size_t size)
{
    const char **words = calloc(request->parsed->word_count + 1, sizeof *words);
    if (words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct extra_conversion conversion = {request->extra, directory, directory, NULL, words,
                                          dataset_extra_words(request->parsed, words),
                                          request->typed, violation_print};
    int result = extra_conversion_write(&conversion, path, size);
    free(words);
    return result;
}

static int raw_convert(struct fetch_request *request, const char *directory, char *path,
                       size_t size)
{
    if (request->extra != NULL)
        return extra_convert(request, directory, path, size);
    struct conversion_inputs inputs;
    conversion_inputs_list(&request->conversion, &inputs);
    for (size_t index = 0; index < inputs.count; index++)
        if (access(inputs.paths[index], R_OK) != 0)
            return error_set(EXIT_MISSING_INPUT, "not downloaded: %s: the dataset's files do "
                             "not include it", inputs.paths[index]);
    struct conversion_listener listener;
    conversion_listen(&listener, transfer.quiet, &request->conversion);
    int result = conversion_run(&request->conversion, path, size);
    conversion_listener_end(&listener, &request->conversion);
    return result;
}

static int result_print(const struct fetch_request *request, const char *path, bool fetched)
{
    if (as_json) {
        json_t *document = json_pack("{s:s, s:s, s:b}", "name", request->dataset.name, "path", path,
                                     "fetched", fetched);
        json_dumpf(document, stdout, JSON_INDENT(2));
        json_decref(document);
        putchar('\n');
    } else {
        printf("%s\n", path);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return EXIT_OK;
}

/* Whether PATH passes fuel-info --check, asked in a child process: HDF5 1.10 can fault reading
   a damaged file, which is then made again like any other that fails the check. */
static bool converted_file_sound(const char *path)
{
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        _exit(h5py_file_passes_check(path) ? EXIT_OK : EXIT_CORRUPT_INPUT);
    }
    int status;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == EXIT_OK;
}

/* Under the directory's lock: nothing when NAME is there and sound, else download, convert,
   remove the raw files. */
static int fetch_locked(struct fetch_request *request, const struct fuel_config *config,
                        const char *directory, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    bool present = access(path, F_OK) == 0;
    if (present && !force && converted_file_sound(path)) {
        if (!transfer.quiet)
            fprintf(stderr, "%s: nothing to do: %s is there and passes fuel-info --check\n",
                    program, path);
        return result_print(request, path, false);
    }
    if (present && !transfer.quiet)
        fprintf(stderr, force ? "%s: --force: making %s again\n"
                                       : "%s: %s fails fuel-info --check: making it again\n",
                program, path);
    int result = raw_download(request, config, directory);
    if (result == EXIT_OK)
        result = raw_convert(request, directory, path, sizeof path);
    if (result == EXIT_OK && !keep_raw)
        result = dataset_files_remove(request->record, directory, false);
    if (result == EXIT_OK)
        result = result_print(request, path, true);
    return result;
}

static int fetch_run(struct fetch_request *request, const struct fuel_config *config)
{
    const char *directory = NULL;
    char name[1024], waiting[PATH_MAX + 64];
    int lock = -1;
    int result = output_directory_choose(request, config, &directory);
    if (result == EXIT_OK)
        snprintf(waiting, sizeof waiting, "%s: waiting for another download or fetch in %s",
                 program, directory);
    if (result == EXIT_OK)
        result = directory_lock_waiting(directory, transfer.quiet ? NULL : waiting, &lock);
    if (result != EXIT_OK)
        return result;
    request->conversion.input_directory = directory;
    request->conversion.output_directory = directory;
    if (request->extra != NULL)
        snprintf(name, sizeof name, "%s.hdf5", request->extra->name);
    else
        conversion_output_name(&request->conversion, name, sizeof name);
    result = fetch_locked(request, config, directory, name);
    directory_unlock(lock);
    return result;
}

/* The usage, then the datasets that have both files and a converter, extras included. */
static int help_print(const struct fetch_request *request)
{
    options_print_help(&fetch_command_line, stdout);
    printf("\n%s\ndatasets:\n", dataset_options_help);
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        char label[64];
        if (!dataset_converts(dataset) &&
            extra_converter_find(&request->extras, dataset->name) == NULL)
            continue;
        snprintf(label, sizeof label, "%s%s%s", dataset->name, dataset->variant ? " " : "",
                 dataset->variant ? dataset->variant : "");
        printf("  %-16s %s\n", label, dataset->summary);
    }
    return EXIT_OK;
}

/* The configuration, with the extra downloaders and converters it names. */
static int extras_load(struct fetch_request *request, struct fuel_config *config)
{
    int result = config_load(config);
    if (result == EXIT_OK)
        result = dataset_registry_load(config->extra_downloaders.items,
                                       config->extra_downloaders.count);
    if (result == EXIT_OK)
        result = extra_converters_find(&request->extras, config->extra_converters.items,
                                       config->extra_converters.count);
    return result;
}

/* NAME's arguments read and resolved, then the fetch; the extras loaded already. */
static int fetch_command(struct fetch_request *request, const struct fuel_config *config)
{
    if (request->parsed->help)
        return help_print(request);
    int result = dataset_arguments_read(program, request->parsed, &request->dataset);
    if (result == EXIT_OK)
        result = dataset_resolve(request);
    if (result != EXIT_OK)
        return result;
    transfer_settings_apply(&transfer, &request->options);
    result = fetch_run(request, config);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_fetch(int argc, char **argv, const struct typed_command *typed)
{
    struct parsed_arguments parsed;
    struct fetch_request request = {.parsed = &parsed, .typed = typed};
    struct fuel_config config = {0};
    int result = options_parse(&fetch_command_line, argc, argv, &parsed);
    /* The extras first: whether NAME takes a FORMAT may come from a manifest. */
    if (result == EXIT_OK) {
        error_clear();
        result = extras_load(&request, &config);
        if (result == EXIT_OK)
            result = fetch_command(&request, &config);
        else
            error_print(program);
    }
    dataset_registry_free();
    extra_converters_free(&request.extras);
    config_free(&config);
    parsed_arguments_free(&parsed);
    return result;
}
