/* fuel-convert: checks a dataset's inputs and runs its converter (built-in or extra) into an
   atomically published file; -h lists the datasets, or a dataset's inputs, output and options. */
#include "common/base/error.h"
#include "common/base/input_file.h"
#include "common/base/publish.h"
#include "common/download/s3_location.h"
#include "s3/s3_publish.h"
#include "converters/conversion.h"
#include "downloaders/dataset_registry.h"
#include "converters/extra_conversion.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "conversion_progress.h"
#include "threads_option.h"
#include "table.h"
#include "store_options.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

struct convert_options {
    const char *input_directory, *output_directory, *output_filename;
    long threads;
    bool quiet, verbose;
    struct store_settings store;
};

static const struct convert_options defaults = {.input_directory = ".",
                                                .output_directory = "."};

#define MEMBER(name) .offset = offsetof(struct convert_options, name)

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING, MEMBER(input_directory),
     .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "where the input files are (default: .)", .reproduce = REPRODUCE_REPLACED},
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, MEMBER(output_directory), .argument = "OUTDIR",
     .completion = COMPLETE_DIRECTORY, .help = "where to write the output (default: .)",
     .reproduce = REPRODUCE_REPLACED},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, MEMBER(output_filename), .argument = "NAME",
     .completion = COMPLETE_FILE,
     .help = "output file name (.hdf5 added without .hdf5/.hdf/.h5)",
     .reproduce = REPRODUCE_FILE_NAME},
    THREADS_OPTION(struct convert_options, threads, "worker threads of the conversion",
                   USAGE_SHOWN),
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "no progress line (drawn only when stderr is a terminal)",
     .reproduce = REPRODUCE_IGNORED},
    {.short_name = 'v', .long_name = "verbose", .kind = OPTION_FLAG, MEMBER(verbose),
     .help = "list every missing input, not only the first", .reproduce = REPRODUCE_IGNORED},
    STORE_OPTIONS(struct convert_options, store),
};

static int convert_help(const struct command_run *run);

const struct command_line convert_command_line = {
    .positional_usage = "DATASET [FORMAT]",
    .description = "Converts the raw files of DATASET in DIR (default: the current directory) into\n"
                   "one HDF5 file in OUTDIR (default: the current directory), on N threads\n"
                   "(default: the online CPUs). On a terminal, a line on stderr shows the progress.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct convert_options),
    .option_defaults = &defaults,
    .positional_completion = COMPLETE_DATASET,
    .dataset = DATASET_CONVERTER,
    .dataset_required = true,
    .dataset_options = true,
    .help = convert_help,
};

/* The datasets with a built-in converter, then the extra converters. */
static int datasets_print(const struct dataset_choice *choice)
{
    static const size_t widths[] = {15, 0};
    struct table table = {.indent = 2, .columns = 2, .minimum_widths = widths};
    const struct dataset *const *list = dataset_list();
    int result = EXIT_OK;
    for (size_t index = 0; list[index] != NULL && result == EXIT_OK; index++) {
        char label[160];
        if (!dataset_converts(list[index]))
            continue;
        dataset_label(list[index], label, sizeof label);
        result = table_add_texts(&table,
                                 (const char *[]){label, list[index]->converter->summary});
    }
    for (size_t index = 0; index < choice->extras.count && result == EXIT_OK; index++) {
        const struct extra_converter *extra = &choice->extras.items[index];
        char summary[4200];
        snprintf(summary, sizeof summary, "extra converter %s", extra->path);
        result = table_add_texts(&table, (const char *[]){extra->name, summary});
    }
    return table_finish(&table, "\ndatasets:\n", result);
}

/* DATASET's usage, inputs, output (named with the options given) and options. */
static void converter_help(const struct command_run *run, const struct dataset *dataset)
{
    const struct converter *converter = dataset->converter;
    struct conversion_request request;
    conversion_request_init(&request, dataset);
    if (dataset == run->dataset->record)
        request.options = run->dataset_options;
    struct converter_inputs inputs = {0};
    converter_list_inputs(dataset, &inputs);
    char output[256];
    conversion_output_name(&request, output, sizeof output);
    command_help_usage(run, dataset);
    printf("\n%s\n\ninputs (in DIR):\n", converter->summary);
    for (size_t index = 0; index < inputs.count; index++)
        printf("  %s\n", inputs.names[index]);
    printf("\noutput (in OUTDIR): %s\n\n", output);
    command_help_options(run, dataset);
}

static int extra_help(const struct command_run *run)
{
    const struct extra_converter *converter = run->dataset->extra;
    const char **words = calloc(run->parsed->word_count + 1, sizeof *words);
    if (words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    size_t count = dataset_extra_words(run->parsed, words);
    command_help_usage(run, NULL);
    printf("\nextra converter %s; its own help follows.\n\n", converter->path);
    fflush(stdout);
    struct subprocess_result child;
    int result = extra_conversion_help(converter, words, count, &child);
    if (result == EXIT_OK) {
        fwrite(child.output, 1, child.length, stdout);
        result = WIFEXITED(child.status) ? WEXITSTATUS(child.status) : EXIT_OTHER;
    }
    free(child.output);
    free(words);
    return result;
}

/* -h: the datasets; a dataset's inputs and options (each format's without FORMAT); or an extra
   converter's own help. */
static int convert_help(const struct command_run *run)
{
    const struct dataset_choice *choice = run->dataset;
    if (choice->extra != NULL)
        return extra_help(run);
    if (choice->name == NULL) {
        command_help(run);
        int result = datasets_print(choice);
        printf("\n'%s DATASET -h' lists a dataset's inputs and options.\n"
               "Python Fuel 0.2's youtube_audio is out of scope: its raw files come from YouTube\n"
               "itself, through youtube-dl, not from a published archive.\n",
               run->program);
        return result;
    }
    const char *separator = "";
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (choice->record == list[index] ||
            (choice->record == NULL && strcmp(list[index]->name, choice->name) == 0 &&
             dataset_converts(list[index]))) {
            fputs(separator, stdout);
            converter_help(run, list[index]);
            separator = "\n";
        }
    return EXIT_OK;
}

/* What stands at the inputs' places: EXIT_OK when each is a regular file; an input that exists
   but is not a regular file stops at once; the missing ones get Fuel's hint, below. */
static int inputs_find(const struct conversion_inputs *inputs, bool *listed, size_t *missing,
                       size_t *first)
{
    *missing = 0;
    for (size_t index = 0; index < inputs->count; index++) {
        int absent = 0;
        int result = input_file_check(inputs->paths[index], &absent);
        if (result != EXIT_OK && !absent)
            return result;
        if (result == EXIT_OK)
            continue;
        error_clear();
        if ((*missing)++ == 0)
            *first = index;
        listed[index] = true;
    }
    return EXIT_OK;
}

/* Fuel's hint when inputs are missing, on one line naming the first (and the -d directory when
   it does not exist); -v lists them all. */
static int check_inputs(const struct command_run *run, const struct conversion_request *request,
                        const struct conversion_inputs *inputs)
{
    const struct convert_options *chosen = run->options;
    size_t missing = 0, first = 0;
    bool listed[CONVERTER_MAX_INPUTS] = {false};
    int result = inputs_find(inputs, listed, &missing, &first);
    if (result != EXIT_OK || missing == 0)
        return result;
    struct stat status;
    const char *directory = request->input_directory;
    if (directory != NULL && stat(directory, &status) != 0 && errno == ENOENT)
        fprintf(stderr, "%s: the input directory does not exist: %s: ", run->program, directory);
    else
        fprintf(stderr, "%s: ", run->program);
    if (missing == 1)
        fprintf(stderr, "required file not found: %s; ", inputs->paths[first]);
    else
        fprintf(stderr, "%zu required files not found: %s and %zu more%s; ", missing,
                inputs->paths[first], missing - 1,
                chosen->verbose ? ", listed below" : " (-v lists them)");
    fprintf(stderr, "Did you forget to run fuel-download?\n");
    for (size_t index = 0; chosen->verbose && missing > 1 && index < inputs->count; index++)
        if (listed[index])
            fprintf(stderr, "   * %s\n", inputs->paths[index]);
    return EXIT_MISSING_INPUT;
}

/* The inputs' bytes: a lower bound of what a conversion staged for an upload writes. */
static uint64_t inputs_size(const struct conversion_inputs *inputs)
{
    uint64_t total = 0;
    for (size_t index = 0; index < inputs->count; index++) {
        struct stat status;
        if (stat(inputs->paths[index], &status) == 0)
            total += (uint64_t)status.st_size;
    }
    return total;
}

static int write_output(const struct command_run *run, struct conversion_request *request)
{
    const struct convert_options *chosen = run->options;
    struct conversion_inputs inputs;
    char path[PATH_MAX];
    conversion_inputs_list(request, &inputs);
    int result = check_inputs(run, request, &inputs);
    if (result != EXIT_OK)
        return result;
    struct s3_publish publish;
    bool to_store = s3_is_url(request->output_directory);
    if (to_store) {
        result = s3_publish_begin(&publish, request->output_directory, inputs_size(&inputs),
                                  request->threads);
        if (result != EXIT_OK)
            return result;
        request->output_directory = publish.staging.path;
    }
    struct conversion_listener listener;
    conversion_listen(&listener, chosen->quiet, request);
    result = conversion_run(request, path, sizeof path);
    conversion_listener_end(&listener, request);
    if (result == EXIT_OK && to_store)
        result = s3_publish_file(&publish, path, path, sizeof path);
    if (to_store)
        s3_publish_end(&publish);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}

/* A violation of the H5PYDataset rules in an extra converter's file, one line. */
static void violation_print(const char *line)
{
    fprintf(stderr, "fuel-convert: %s\n", line);
}

/* Every argument but -d, -o, -r and the dataset name goes to the extra converter. */
static int convert_extra(const struct command_run *run)
{
    const struct convert_options *chosen = run->options;
    const char **words = calloc(run->parsed->word_count + 1, sizeof *words);
    if (words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    size_t count = dataset_extra_words(run->parsed, words);
    struct extra_conversion conversion = {
        run->dataset->extra, chosen->input_directory, chosen->output_directory,
        chosen->output_filename, words, count, run->typed, violation_print};
    char path[4096];
    int result = extra_conversion_write(&conversion, path, sizeof path);
    if (result == EXIT_OK)
        printf("%s\n", path);
    free(words);
    return result;
}

int convert_body(const struct command_run *run)
{
    const struct convert_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    if (run->dataset->extra != NULL)
        return convert_extra(run);
    struct conversion_request request;
    conversion_request_init(&request, run->dataset->record);
    request.options = run->dataset_options;
    request.input_directory = chosen->input_directory;
    request.output_directory = chosen->output_directory;
    request.output_name = chosen->output_filename;
    request.threads = (unsigned)chosen->threads;
    request.typed = run->typed;
    return write_output(run, &request);
}
