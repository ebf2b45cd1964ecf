/* fuel-fetch: download a dataset, convert it and remove the raw files, into the data path. */
#include "common/base/config.h"
#include "common/base/directory.h"
#include "common/base/error.h"
#include "common/hdf5/h5py_file_facts.h"
#include "converters/converter.h"
#include "commands.h"
#include "conversion.h"
#include "convert.h"
#include "download_items.h"
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

static const char usage[] =
    "usage: fuel-fetch [-h] NAME [FORMAT] [DATASET OPTIONS] [--keep-raw] [--force] [-d DIR]\n"
    "                  [options]\n"
    "\n"
    "Downloads the raw files of NAME, converts them and removes them, leaving the HDF5 file in\n"
    "DIR or else in the first writable directory of the data path. When the converted file is\n"
    "already there and passes fuel-info --check, does nothing and says so. Prints the file's\n"
    "path.\n"
    "\n"
    "options:\n"
    "  -d DIR               where the files go (default: the first writable data path directory)\n"
    "  --keep-raw           keep the raw files after converting\n"
    "  --force              make the file again even when it is there and passes the check\n"
    "                       (raw files present and verified are used again)\n"
    "  --json               print {\"name\", \"path\", \"fetched\"}\n"
    "  --url-prefix PREFIX  fetch every file from PREFIX/NAME instead of the built-in URLs\n"
    "  --checksums FILE     md5sum/sha256sum lines replacing the built-in checksums\n"
    "  -j N                 transfers at once (default 4)\n"
    "  --threads N          conversion threads (default: the online CPUs)\n"
    "  --retries N          retries of a transient failure per URL (default 5)\n"
    "  --timeout SECONDS    give up a stalled connection after SECONDS (default 60)\n"
    "  --retry-delay SECONDS  pause before the first retry, doubled each time (default 1)\n"
    "  -q                   print only errors\n"
    "\n"
    "DATASET OPTIONS are those of fuel-convert NAME -h, e.g. mnist --dtype float32; an extra\n"
    "converter (extra_converters) gets FORMAT and them as typed, each option with a value.\n";

struct fetch_request {
    const char *name, *variant, *directory, *url_prefix, *checksums;
    bool keep_raw, force, quiet, as_json, help;
    const struct downloader *downloader;
    const struct converter *converter;
    const struct extra_converter *extra; /* when NAME has no built-in converter */
    struct extra_converters extras;
    struct converter_arguments arguments;
    char *pending[2 * CONVERTER_MAX_OPTIONS]; /* dataset options, resolved once NAME is known */
    size_t pending_count;
    struct download_options options;
};

static bool number_parse(const char *text, double minimum, double maximum, bool whole,
                         double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return errno == 0 && end != text && *end == '\0' && *value >= minimum && *value <= maximum &&
           (!whole || *value == (double)(unsigned)*value);
}

/* Options of fuel-download that fetch passes on, each taking a value. */
static int download_option_set(struct fetch_request *request, const char *name, const char *value,
                               bool *matched)
{
    double number;
    *matched = true;
    if (strcmp(name, "-d") == 0 || strcmp(name, "--directory") == 0)
        request->directory = value;
    else if (strcmp(name, "--url-prefix") == 0)
        request->url_prefix = value;
    else if (strcmp(name, "--checksums") == 0)
        request->checksums = value;
    else if (strcmp(name, "--threads") == 0)
        return conversion_parse_threads(program, value, &request->arguments.threads);
    else if (strcmp(name, "-j") == 0 || strcmp(name, "--jobs") == 0) {
        if (!number_parse(value, 1, 64, true, &number))
            return usage_error(program, "invalid -j: %s: expected a whole number from 1 to 64",
                               value);
        request->options.jobs = (unsigned)number;
    } else if (strcmp(name, "--retries") == 0) {
        if (!number_parse(value, 0, 100, true, &number))
            return usage_error(program,
                               "invalid --retries: %s: expected a whole number from 0 to 100",
                               value);
        request->options.retries = (unsigned)number;
    } else if (strcmp(name, "--timeout") == 0) {
        if (!number_parse(value, 0.001, 86400, false, &request->options.timeout))
            return usage_error(program, "invalid --timeout: %s: expected seconds above 0", value);
    } else if (strcmp(name, "--retry-delay") == 0) {
        if (!number_parse(value, 0, 3600, false, &request->options.retry_delay))
            return usage_error(program, "invalid --retry-delay: %s: expected seconds", value);
    } else
        *matched = false;
    return EXIT_OK;
}

static bool flag_set(struct fetch_request *request, const char *argument)
{
    bool *flags[] = {&request->keep_raw, &request->force, &request->quiet, &request->quiet,
                     &request->as_json, &request->help, &request->help};
    static const char *const names[] = {"--keep-raw", "--force", "-q", "--quiet", "--json", "-h",
                                        "--help"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++)
        if (strcmp(argument, names[index]) == 0) {
            *flags[index] = true;
            return true;
        }
    return false;
}

static int positional_add(struct fetch_request *request, const char *argument)
{
    if (request->name == NULL)
        request->name = argument;
    else if (request->variant == NULL && downloader_has_variants(request->name))
        request->variant = argument;
    else
        return usage_error(program, "unexpected argument: %s", argument);
    return EXIT_OK;
}

/* An option with a value: "--name=value" or "--name value". */
static int valued_option(struct fetch_request *request, char *argument, int *index, int argc,
                         char **argv)
{
    char *equals = strchr(argument, '=');
    const char *value = NULL;
    if (argument[1] == '-' && equals != NULL) {
        *equals = '\0';
        value = equals + 1;
    } else if (*index + 1 < argc) {
        value = argv[++*index];
    }
    if (value == NULL)
        return usage_error(program, "option %s needs a value", argument);
    bool matched;
    int result = download_option_set(request, argument, value, &matched);
    if (result != EXIT_OK || matched)
        return result;
    if (request->pending_count + 2 > sizeof request->pending / sizeof request->pending[0])
        return usage_error(program, "too many options: %s", argument);
    request->pending[request->pending_count++] = argument;
    request->pending[request->pending_count++] = (char *)value;
    return EXIT_OK;
}

static int arguments_parse(struct fetch_request *request, int argc, char **argv)
{
    for (int index = 1; index < argc; index++) {
        char *argument = argv[index];
        int result = EXIT_OK;
        if (flag_set(request, argument))
            continue;
        if (argument[0] != '-' || argument[1] == '\0')
            result = positional_add(request, argument);
        else
            result = valued_option(request, argument, &index, argc, argv);
        if (result != EXIT_OK)
            return result;
    }
    if (request->name == NULL && !request->help)
        return usage_error(program, "missing dataset name");
    return EXIT_OK;
}

static int converter_option_set(struct fetch_request *request, const char *name,
                                const char *value)
{
    int index = converter_option_index(request->converter, name);
    if (index < 0)
        return usage_error(program, "unknown option: %s", name);
    if (!converter_option_choose(request->converter, index, &request->arguments, value))
        return usage_error(program, "invalid choice: %s", value);
    return EXIT_OK;
}

/* The downloader and converter of NAME [FORMAT], and the dataset options given. */
static int dataset_resolve(struct fetch_request *request)
{
    bool variants = downloader_has_variants(request->name);
    request->downloader = downloader_find(request->name, variants ? request->variant : NULL);
    if (request->downloader == NULL && !variants)
        return usage_error(program, "unknown dataset: %s", request->name);
    if (request->downloader == NULL && request->variant != NULL)
        return usage_error(program, "unknown format: %s", request->variant);
    if (request->downloader == NULL)
        return usage_error(program, "%s needs a format: none given", request->name);
    request->converter = converter_find_variant(request->name, request->variant);
    if (request->converter == NULL)
        request->extra = extra_converter_find(&request->extras, request->name);
    if (request->extra != NULL)
        return EXIT_OK;
    if (request->converter == NULL)
        return usage_error(program, "no converter for this dataset: %s", request->name);
    converter_set_defaults(request->converter, &request->arguments);
    int result = EXIT_OK;
    for (size_t index = 0; index < request->pending_count && result == EXIT_OK; index += 2)
        result = converter_option_set(request, request->pending[index],
                                      request->pending[index + 1]);
    return result;
}

static bool writable_directory(const char *path)
{
    struct stat status;
    return stat(path, &status) == 0 && S_ISDIR(status.st_mode) && access(path, W_OK | X_OK) == 0;
}

static int output_directory_choose(const struct fetch_request *request,
                                   const struct fuel_config *config, const char **directory)
{
    if (request->directory != NULL) {
        *directory = request->directory;
        return directory_create(request->directory);
    }
    for (size_t index = 0; index < config->data_path.count; index++)
        if (writable_directory(config->data_path.items[index])) {
            *directory = config->data_path.items[index];
            return EXIT_OK;
        }
    return error_set(EXIT_WRITE, "no writable directory in the data path: %s: give -d DIR, or "
                     "set data_path in ~/.fuelrc or FUEL_DATA_PATH", request->name);
}

/* The lock fuel-download takes on the directory, held for the whole fetch: a concurrent fetch
   waits, then finds the file made, and never sees the raw files removed under it. */
static int directory_lock_wait(const struct fetch_request *request, const char *directory,
                               int *lock)
{
    bool busy;
    int result = directory_lock(directory, false, lock, &busy);
    if (result == EXIT_OK && busy) {
        if (!request->quiet)
            fprintf(stderr, "%s: waiting for another download or fetch in %s\n", program,
                    directory);
        result = directory_lock(directory, true, lock, &busy);
    }
    return result;
}

static int raw_download(const struct fetch_request *request, const struct fuel_config *config,
                        const char *directory)
{
    struct item_table table = {0};
    int result = item_table_build(&table, request->downloader, request->url_prefix, config,
                                  request->checksums);
    struct download_options options = request->options;
    options.directory = directory;
    if (result == EXIT_OK)
        result = download_run(table.items, table.count, &options);
    item_table_free(&table);
    return result;
}

/* An extra converter run on DIRECTORY with FORMAT and the dataset options, as fuel-convert
   NAME [FORMAT] OPTIONS would run it. */
static int extra_convert(struct fetch_request *request, const char *directory, char *path,
                         size_t size)
{
    char *arguments[1 + 2 * CONVERTER_MAX_OPTIONS];
    size_t count = 0;
    if (request->variant != NULL)
        arguments[count++] = (char *)request->variant;
    for (size_t index = 0; index < request->pending_count; index++)
        arguments[count++] = request->pending[index];
    return extra_conversion_write(request->extra, directory, directory, NULL, arguments, count,
                                  path, size);
}

static int raw_convert(struct fetch_request *request, const char *directory, const char *name,
                       char *path, size_t size)
{
    if (request->extra != NULL)
        return extra_convert(request, directory, path, size);
    struct converter_inputs inputs = {0};
    char input_paths[CONVERTER_MAX_INPUTS][PATH_MAX];
    const char *input_list[CONVERTER_MAX_INPUTS];
    request->arguments.input_directory = directory;
    request->arguments.scratch_directory = directory;
    converter_list_inputs(request->converter, &request->arguments, &inputs);
    for (size_t index = 0; index < inputs.count; index++) {
        snprintf(input_paths[index], PATH_MAX, "%s/%s", directory, inputs.names[index]);
        input_list[index] = input_paths[index];
        if (access(input_paths[index], R_OK) != 0)
            return error_set(EXIT_MISSING_INPUT, "not downloaded: %s: the dataset's files do "
                             "not include it", input_paths[index]);
    }
    return conversion_write(request->converter, &request->arguments, input_list, inputs.count,
                            directory, name, request->options.progress, path, size);
}

static int raw_remove(const struct fetch_request *request, const char *directory)
{
    for (size_t index = 0; index < request->downloader->file_count; index++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", directory, request->downloader->files[index].name);
        if (unlink(path) != 0 && errno != ENOENT)
            return error_set(EXIT_WRITE, "cannot remove: %s: %s", path, strerror(errno));
    }
    return EXIT_OK;
}

static int result_print(const struct fetch_request *request, const char *path, bool fetched)
{
    if (request->as_json) {
        json_t *document = json_pack("{s:s, s:s, s:b}", "name", request->name, "path", path,
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
    if (present && !request->force && converted_file_sound(path)) {
        if (!request->quiet)
            fprintf(stderr, "%s: nothing to do: %s is there and passes fuel-info --check\n",
                    program, path);
        return result_print(request, path, false);
    }
    if (present && !request->quiet)
        fprintf(stderr, request->force ? "%s: --force: making %s again\n"
                                       : "%s: %s fails fuel-info --check: making it again\n",
                program, path);
    int result = raw_download(request, config, directory);
    if (result == EXIT_OK)
        result = raw_convert(request, directory, name, path, sizeof path);
    if (result == EXIT_OK && !request->keep_raw)
        result = raw_remove(request, directory);
    if (result == EXIT_OK)
        result = result_print(request, path, true);
    return result;
}

static int fetch_run(struct fetch_request *request, const struct fuel_config *config)
{
    const char *directory = NULL;
    char name[1024];
    int lock = -1;
    int result = output_directory_choose(request, config, &directory);
    if (result == EXIT_OK)
        result = directory_lock_wait(request, directory, &lock);
    if (result != EXIT_OK)
        return result;
    request->arguments.input_directory = directory;
    if (request->extra != NULL)
        snprintf(name, sizeof name, "%s.hdf5", request->extra->name);
    else
        converter_name_output(request->converter, &request->arguments, name, sizeof name);
    result = fetch_locked(request, config, directory, name);
    directory_unlock(lock);
    return result;
}

/* The usage, then the datasets that have both a downloader and a converter, extras included. */
static int help_print(const struct fetch_request *request)
{
    fputs(usage, stdout);
    printf("\ndatasets:\n");
    const struct downloader *const *list = downloader_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct downloader *downloader = list[index];
        char label[64];
        if (converter_find_variant(downloader->name, downloader->variant) == NULL &&
            extra_converter_find(&request->extras, downloader->name) == NULL)
            continue;
        snprintf(label, sizeof label, "%s%s%s", downloader->name, downloader->variant ? " " : "",
                 downloader->variant ? downloader->variant : "");
        printf("  %-16s %s\n", label, downloader->summary);
    }
    return EXIT_OK;
}

/* The configuration, with the extra downloaders and converters it names. */
static int extras_load(struct fetch_request *request, struct fuel_config *config)
{
    int result = config_load(config);
    if (result == EXIT_OK)
        result = downloader_registry_load(config->extra_downloaders.items,
                                          config->extra_downloaders.count);
    if (result == EXIT_OK)
        result = extra_converters_find(&request->extras, config->extra_converters.items,
                                       config->extra_converters.count);
    return result;
}

/* NAME's arguments parsed and resolved, then the fetch; the extras loaded already. */
static int fetch_command(struct fetch_request *request, const struct fuel_config *config,
                         int argc, char **argv)
{
    int result = arguments_parse(request, argc, argv);
    if (result != EXIT_OK)
        return result;
    if (request->help)
        return help_print(request);
    if ((result = dataset_resolve(request)) != EXIT_OK)
        return result;
    request->options.progress = request->quiet             ? PROGRESS_QUIET
                                : isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_LINES;
    result = fetch_run(request, config);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_fetch(int argc, char **argv)
{
    struct fetch_request request = {
        .options = {.jobs = 4, .retries = 5, .timeout = 60, .retry_delay = 1},
        .arguments = {.threads = conversion_default_threads()},
    };
    struct fuel_config config = {0};
    error_clear();
    /* The extras first: whether NAME takes a FORMAT may come from a manifest. */
    int result = extras_load(&request, &config);
    if (result == EXIT_OK)
        result = fetch_command(&request, &config, argc, argv);
    else
        error_print(program);
    downloader_registry_free();
    extra_converters_free(&request.extras);
    config_free(&config);
    return result;
}
