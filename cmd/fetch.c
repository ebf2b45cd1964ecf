/* fuel-fetch: download a dataset, convert it and remove the raw files, into the data path. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/download/s3_location.h"
#include "s3/s3_cluster_fetch.h"
#include "common/h5py/h5py_check.h"
#include "converters/conversion.h"
#include "downloaders/dataset_registry.h"
#include "downloaders/download_items.h"
#include "converters/extra_conversion.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "conversion_progress.h"
#include "threads_option.h"
#include "table.h"
#include "transfer_options.h"
#include "usage.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct fetch_options {
    const char *directory;
    bool keep_raw, force, as_json;
    long threads, rank;
    double wait;
    struct transfer_settings transfer;
};

static const struct fetch_options defaults = {.transfer = TRANSFER_SETTINGS_DEFAULT, .rank = -1,
                                              .wait = 3600};

#define MEMBER(name) .offset = offsetof(struct fetch_options, name)

static const struct command_option options[] = {
    {.long_name = "keep-raw", .kind = OPTION_FLAG, MEMBER(keep_raw),
     .help = "keep the raw files after converting", .reproduce = REPRODUCE_IGNORED},
    {.long_name = "force", .kind = OPTION_FLAG, MEMBER(force),
     .help = "make the file again even when it is there and passes the check (raw files "
             "present and verified are used again)", .reproduce = REPRODUCE_IGNORED},
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING, MEMBER(directory),
     .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "where the files go, a directory or s3://BUCKET/PREFIX (default: the data path's "
             "first s3:// entry or writable directory)",
     .reproduce = REPRODUCE_REPLACED},
    {.long_name = "json", .kind = OPTION_FLAG, MEMBER(as_json),
     .help = "print {\"name\", \"path\", \"fetched\"}", .reproduce = REPRODUCE_IGNORED,
     .usage = USAGE_OPTIONS},
    THREADS_OPTION(struct fetch_options, threads, "worker threads of the conversion",
                   USAGE_OPTIONS),
    {.long_name = "rank", .kind = OPTION_INTEGER, MEMBER(rank), .argument = "K", .minimum = 0,
     .maximum = 1e9, .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS,
     .help = "into s3:// on a store refusing conditional PUTs: this node's rank (default: RANK, "
             "SLURM_PROCID, OMPI_COMM_WORLD_RANK, else 0); rank 0 fetches, the others wait"},
    {.long_name = "wait", .kind = OPTION_DECIMAL, MEMBER(wait), .argument = "SECONDS",
     .minimum = 0, .maximum = 1e7, .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS,
     .help = "into s3://, a node that does not fetch: how long to wait for the fetching node's "
             "file (default 3600)"},
    TRANSFER_OPTIONS(struct fetch_options, transfer, USAGE_OPTIONS),
};

static int fetch_help(const struct command_run *run);

const struct command_line fetch_command_line = {
    .positional_usage = "NAME [FORMAT]",
    .description =
        "Downloads the raw files of NAME, converts them and removes them, leaving the HDF5 file in\n"
        "DIR or else in the first writable directory of the data path. When the converted file is\n"
        "already there and passes fuel-info --check, does nothing and says so. Prints the file's\n"
        "path. Into s3://BUCKET/PREFIX (-d, or the data path's first entry; fuel-s3(7)) a cluster's\n"
        "nodes send the origin each file once: the node that creates the lease object (else rank\n"
        "0) fetches and uploads, the others wait for its object, and exit 5 when it failed.\n\n"
        "DATASET OPTIONS are those of fuel-convert NAME -h, e.g. mnist --dtype float32; an extra\n"
        "converter (extra_converters) gets FORMAT and them as typed, each option with a value.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct fetch_options),
    .option_defaults = &defaults,
    .positional_completion = COMPLETE_DATASET,
    .dataset = DATASET_RECORD,
    .dataset_required = true,
    .dataset_options = true,
    .help = fetch_help,
};

/* A violation of the H5PYDataset rules in an extra converter's file, one line. */
static void violation_print(const char *line)
{
    fprintf(stderr, "fuel-fetch: %s\n", line);
}

struct fetch_request {
    const struct command_run *run;
    const struct fetch_options *chosen;
    const struct dataset *record; /* the dataset NAME [FORMAT] names */
    const struct converter *converter;
    const struct extra_converter *extra; /* when NAME has no built-in converter */
    struct conversion_request conversion; /* of the built-in converter */
    struct download_options options;
    bool staged;                  /* the directory is the staging of an upload: check the space */
};

static int output_directory_choose(const struct fetch_request *request, const char **directory)
{
    if (request->chosen->directory != NULL) {
        *directory = request->chosen->directory;
        return directory_create(*directory);
    }
    *directory = data_path_writable(&request->run->dataset->config);
    if (*directory != NULL)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "no writable directory in the data path: %s: give -d DIR, or "
                     "set data_path in %s or FUEL_DATA_PATH", request->record->name,
                     config_file_shown());
}

static int raw_download(const struct fetch_request *request, const char *directory)
{
    const struct transfer_settings *transfer = &request->chosen->transfer;
    struct item_table table = {0};
    int result = item_table_build(&table, request->record, transfer->url_prefix,
                                  &request->run->dataset->config, transfer->checksums);
    struct download_options options = request->options;
    options.directory = directory;
    uint64_t total = 0, largest = 0;
    for (size_t index = 0; result == EXIT_OK && index < table.count; index++) {
        total = disk_space_sum(total, table.items[index].size);
        largest = table.items[index].size > largest ? table.items[index].size : largest;
    }
    if (result == EXIT_OK && request->staged)
        result = disk_space_check(directory, directory, total, largest);
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
    const struct parsed_arguments *parsed = request->run->parsed;
    const char **words = calloc(parsed->word_count + 1, sizeof *words);
    if (words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct extra_conversion conversion = {request->extra, directory, directory, NULL, words,
                                          dataset_extra_words(parsed, words),
                                          request->run->typed, violation_print};
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
    conversion_listen(&listener, request->chosen->transfer.quiet, &request->conversion);
    int result = conversion_run(&request->conversion, path, size);
    conversion_listener_end(&listener, &request->conversion);
    return result;
}

static int result_print(const struct fetch_request *request, const char *path, bool fetched)
{
    if (request->chosen->as_json) {
        json_t *document = json_pack("{s:s, s:s, s:b}", "name", request->record->name, "path",
                                     path, "fetched", fetched);
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
static int fetch_locked(struct fetch_request *request, const char *directory, const char *name)
{
    const struct fetch_options *chosen = request->chosen;
    const char *program = request->run->program;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    bool present = access(path, F_OK) == 0, quiet = chosen->transfer.quiet;
    if (present && !chosen->force && converted_file_sound(path)) {
        if (!quiet)
            fprintf(stderr, "%s: nothing to do: %s is there and passes fuel-info --check\n",
                    program, path);
        return result_print(request, path, false);
    }
    if (present && !quiet)
        fprintf(stderr, chosen->force ? "%s: --force: making %s again\n"
                                      : "%s: %s fails fuel-info --check: making it again\n",
                program, path);
    int result = raw_download(request, directory);
    if (result == EXIT_OK)
        result = raw_convert(request, directory, path, sizeof path);
    if (result == EXIT_OK && !chosen->keep_raw)
        result = dataset_files_remove(request->record, directory, false);
    if (result == EXIT_OK)
        result = result_print(request, path, true);
    return result;
}

/* The fetching node's download into the local staging DIRECTORY, its free space checked. */
static int store_download(void *context, const char *directory)
{
    struct fetch_request *request = context;
    request->staged = true;
    request->conversion.input_directory = directory;
    request->conversion.output_directory = directory;
    return raw_download(request, directory);
}

static int store_convert(void *context, const char *directory, char *path, size_t size)
{
    return raw_convert(context, directory, path, size);
}

/* Into s3://BUCKET/PREFIX (-d or the data path): nothing when the object is there as fuel
   publishes it, else one node fetches it and the others wait for it. */
static int fetch_to_store(struct fetch_request *request, const char *output, const char *name)
{
    const struct fetch_options *chosen = request->chosen;
    const char *program = request->run->program;
    struct s3_cluster_fetch fetch = {
        .output = output, .name = name, .rank = chosen->rank, .wait = chosen->wait,
        .threads = (unsigned)chosen->threads, .force = chosen->force,
        .program = chosen->transfer.quiet ? NULL : program, .download = store_download,
        .convert = store_convert, .context = request};
    enum s3_cluster_fetch_outcome outcome;
    char url[PATH_MAX];
    int result = s3_cluster_fetch_run(&fetch, url, sizeof url, &outcome);
    if (result != EXIT_OK)
        return result;
    if (outcome == S3_FETCH_PRESENT && !chosen->transfer.quiet)
        fprintf(stderr, "%s: nothing to do: %s is there, its sha256 recorded\n", program, url);
    return result_print(request, url, outcome == S3_FETCH_MADE);
}

/* The converted file's name. */
static void output_name(struct fetch_request *request, char *name, size_t size)
{
    if (request->extra != NULL)
        snprintf(name, size, "%s.hdf5", request->extra->name);
    else
        conversion_output_name(&request->conversion, name, size);
}

static int fetch_run(struct fetch_request *request)
{
    const char *directory = NULL;
    char name[1024], waiting[PATH_MAX + 64];
    int lock = -1;
    output_name(request, name, sizeof name);
    const char *output = request->chosen->directory != NULL
                             ? request->chosen->directory
                             : data_path_writable(&request->run->dataset->config);
    if (output != NULL && s3_is_url(output))
        return fetch_to_store(request, output, name);
    size_t missing = output != NULL ? directory_missing_prefix(output) : 0;
    int result = output_directory_choose(request, &directory);
    if (result == EXIT_OK)
        snprintf(waiting, sizeof waiting, "%s: waiting for another download or fetch in %s",
                 request->run->program, directory);
    if (result == EXIT_OK)
        result = directory_lock_waiting(directory, request->chosen->transfer.quiet ? NULL : waiting,
                                        &lock);
    if (result != EXIT_OK)
        return result;
    request->conversion.input_directory = directory;
    request->conversion.output_directory = directory;
    result = fetch_locked(request, directory, name);
    directory_unlock(lock, directory, DIRECTORY_LOCK_NAME);
    if (result != EXIT_OK)
        directory_remove_created(directory, missing);
    return result;
}

/* The usage, then the datasets that have both files and a converter, extras included. */
static int fetch_help(const struct command_run *run)
{
    const struct dataset_choice *choice = run->dataset;
    command_help(run);
    if (choice->record != NULL)
        return EXIT_OK;
    static const size_t widths[] = {15, 0};
    struct table table = {.indent = 2, .columns = 2, .minimum_widths = widths};
    const struct dataset *const *list = dataset_list();
    int result = EXIT_OK;
    for (size_t index = 0; list[index] != NULL && result == EXIT_OK; index++) {
        const struct dataset *dataset = list[index];
        char label[160];
        if (!dataset_converts(dataset) &&
            extra_converter_find(&choice->extras, dataset->name) == NULL)
            continue;
        dataset_label(dataset, label, sizeof label);
        result = table_add_texts(&table, (const char *[]){label, dataset->summary});
    }
    return table_finish(&table, "\ndatasets:\n", result);
}

int fetch_body(const struct command_run *run)
{
    struct fetch_request request = {.run = run, .chosen = run->options,
                                    .record = run->dataset->record,
                                    .converter = dataset_choice_converter(run->dataset),
                                    .extra = run->dataset->extra};
    if (request.converter == NULL && request.extra == NULL)
        return usage_error(run->program, "no converter for this dataset: %s", request.record->name);
    if (request.converter != NULL) {
        conversion_request_init(&request.conversion, request.record);
        request.conversion.options = run->dataset_options;
        request.conversion.threads = (unsigned)request.chosen->threads;
        request.conversion.typed = run->typed;
    }
    transfer_settings_apply(&request.chosen->transfer, &request.options);
    return fetch_run(&request);
}
