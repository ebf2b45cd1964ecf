/* fuel-convert: parses options, checks inputs, and runs a converter (built-in or extra) into an
   atomically published file. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "converters/conversion.h"
#include "converters/registry.h"
#include "converters/extra_conversion.h"
#include "commands.h"
#include "conversion_progress.h"
#include "dataset_arguments.h"
#include "threads_option.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char program[] = "fuel-convert";

static const char *input_directory = ".", *output_directory = ".", *output_filename;
static long threads;
static bool quiet;

static const struct command_option options[] = {
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING,
     .value = &input_directory, .argument = "DIR", .completion = COMPLETE_DIRECTORY,
     .help = "where the input files are (default: .)"},
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, .value = &output_directory, .argument = "DIR",
     .completion = COMPLETE_DIRECTORY, .help = "where to write the output (default: .)"},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, .value = &output_filename, .argument = "NAME",
     .completion = COMPLETE_FILE,
     .help = "output file name (.hdf5 added without .hdf5/.hdf/.h5)"},
    THREADS_OPTION(threads, "worker threads of the conversion"),
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, .value = &quiet,
     .help = "no progress line (drawn only when stderr is a terminal)"},
};

const struct command_line convert_command_line = {
    .program = program,
    .usage = "[-h] DATASET [FORMAT] [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q] [OPTIONS]",
    .description = "Converts the raw files of DATASET in DIR (default: the current directory) into\n"
                   "one HDF5 file in OUTDIR (default: the current directory), on N threads\n"
                   "(default: the online CPUs). On a terminal, a line on stderr shows the progress.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = (size_t)-1,
    .positional_completion = COMPLETE_DATASET,
    .pass_unknown = true,
};

struct convert_request {
    struct dataset_arguments dataset;
    struct conversion_request conversion;
};

static void print_overview(FILE *stream, const struct extra_converters *extras)
{
    fprintf(stream, "usage: %s %s\n\n%s\n\ndatasets:\n", program, convert_command_line.usage,
            convert_command_line.description);
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        const struct dataset *dataset = list[index];
        char name[64];
        if (!dataset_converts(dataset))
            continue;
        snprintf(name, sizeof name, "%s%s%s", dataset->name, dataset->variant ? " " : "",
                 dataset->variant ? dataset->variant : "");
        fprintf(stream, "  %-16s %s\n", name, dataset->converter->summary);
    }
    for (size_t index = 0; index < extras->count; index++)
        fprintf(stream, "  %-16s extra converter %s\n", extras->items[index].name,
                extras->items[index].path);
    fprintf(stream, "\n'fuel-convert DATASET -h' lists a dataset's inputs and options.\n");
}

static void print_converter_options(const struct converter *converter)
{
    options_print_table(&convert_command_line, stdout);
    for (size_t index = 0; index < converter->option_count; index++) {
        const struct converter_option *option = &converter->options[index];
        printf("  %s {", option->name);
        for (size_t choice = 0; option->choices[choice] != NULL; choice++)
            printf("%s%s", choice ? "," : "", option->choices[choice]);
        printf("}\n      %s (default: %s)\n", option->help, option->default_value);
    }
}

static void print_converter_help(const struct dataset *dataset)
{
    const struct converter *converter = dataset->converter;
    struct conversion_request defaults;
    conversion_request_init(&defaults, dataset);
    struct converter_inputs inputs = {0};
    converter_list_inputs(dataset, &inputs);
    char output[256];
    conversion_output_name(&defaults, output, sizeof output);
    printf("usage: %s %s%s%s [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q]", program,
           dataset->name, dataset->variant ? " " : "", dataset->variant ? dataset->variant : "");
    for (size_t index = 0; index < converter->option_count; index++)
        printf(" [%s VALUE]", converter->options[index].name);
    printf("\n\n%s\n\ninputs (in DIR):\n", converter->summary);
    for (size_t index = 0; index < inputs.count; index++)
        printf("  %s\n", inputs.names[index]);
    printf("\noutput (in OUTDIR): %s\n\n", output);
    print_converter_options(converter);
}

/* DATASET -h without a format: the help of each of its formats. */
static void print_formats_help(const char *dataset)
{
    const char *separator = "";
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, dataset) == 0 && dataset_converts(list[index])) {
            fputs(separator, stdout);
            print_converter_help(list[index]);
            separator = "\n";
        }
}

/* Picks the converter of DATASET, and of its FORMAT when it has several. */
static int find_converter(struct convert_request *request)
{
    const char *name = request->dataset.name, *format = request->dataset.format;
    const struct dataset *match;
    enum dataset_lookup found = dataset_find(name, format, &match);
    if (found == DATASET_UNKNOWN || (found == DATASET_FOUND && !dataset_converts(match)))
        return usage_error(program, "unknown dataset: %s", name);
    if (found != DATASET_FOUND)
        return usage_error(program, format ? "unknown format: %s" : "missing format of %s",
                           format ? format : name);
    conversion_request_init(&request->conversion, match);
    return EXIT_OK;
}

/* Fuel's message when inputs are missing: each one, then the hint. */
static int check_inputs(const struct conversion_inputs *inputs)
{
    size_t missing = 0;
    for (size_t index = 0; index < inputs->count; index++) {
        struct stat status;
        if (stat(inputs->paths[index], &status) == 0 && S_ISREG(status.st_mode))
            continue;
        if (missing++ == 0)
            fprintf(stderr, "%s: the following required files were not found:\n", program);
        fprintf(stderr, "   * %s\n", inputs->paths[index]);
    }
    if (missing == 0)
        return EXIT_OK;
    fprintf(stderr, "Did you forget to run fuel-download?\n");
    return EXIT_MISSING_INPUT;
}

static int write_output(struct conversion_request *request)
{
    struct conversion_inputs inputs;
    char path[PATH_MAX];
    conversion_inputs_list(request, &inputs);
    int result = check_inputs(&inputs);
    if (result != EXIT_OK)
        return result;
    error_clear();
    struct conversion_listener listener;
    conversion_listen(&listener, quiet, request);
    result = conversion_run(request, path, sizeof path);
    conversion_listener_end(&listener, request);
    if (result == EXIT_OK)
        printf("%s\n", path);
    else
        error_print(program);
    return result;
}

/* -h: the datasets, the formats of one, or one converter's inputs and options. */
static int print_help(struct convert_request *request, const struct extra_converters *extras)
{
    if (request->dataset.name == NULL) {
        print_overview(stdout, extras);
        return EXIT_OK;
    }
    if (request->dataset.format == NULL && dataset_has_formats(request->dataset.name)) {
        print_formats_help(request->dataset.name);
        return EXIT_OK;
    }
    int result = find_converter(request);
    if (result == EXIT_OK)
        print_converter_help(request->conversion.dataset);
    return result;
}

static int convert_builtin(const struct parsed_arguments *parsed,
                           const struct extra_converters *extras, const struct typed_command *typed)
{
    struct convert_request request = {0};
    int result = dataset_arguments_read(program, parsed, &request.dataset);
    if (result != EXIT_OK)
        return result;
    if (parsed->help)
        return print_help(&request, extras);
    result = find_converter(&request);
    if (result == EXIT_OK)
        result = dataset_options_apply(program, parsed, &request.conversion);
    if (result != EXIT_OK)
        return result;
    request.conversion.input_directory = input_directory;
    request.conversion.output_directory = output_directory;
    request.conversion.output_name = output_filename;
    request.conversion.threads = (unsigned)threads;
    request.conversion.typed = typed;
    return write_output(&request.conversion);
}

/* A violation of the H5PYDataset rules in an extra converter's file, one line. */
static void violation_print(const char *line)
{
    fprintf(stderr, "%s: %s\n", program, line);
}

static int print_extra_help(const struct extra_converter *converter, const char *const *words,
                            size_t count)
{
    printf("usage: %s %s [-d DIR] [-o OUTDIR] [-r NAME] [ARGUMENTS]\n\n"
           "extra converter %s; its own help follows.\n\n", program, converter->name,
           converter->path);
    fflush(stdout);
    struct subprocess_result run;
    int result = extra_conversion_help(converter, words, count, &run);
    if (result == EXIT_OK) {
        fwrite(run.output, 1, run.length, stdout);
        result = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : EXIT_OTHER;
    } else {
        error_print(program);
    }
    free(run.output);
    return result;
}

/* Every argument but -d, -o, -r, -h and the dataset name goes to the extra converter. */
static int convert_extra(const struct extra_converter *converter,
                         const struct parsed_arguments *parsed, const struct typed_command *typed)
{
    const char **words = calloc(parsed->word_count + 1, sizeof *words);
    if (words == NULL) {
        fprintf(stderr, "%s: out of memory\n", program);
        return EXIT_OTHER;
    }
    size_t count = dataset_extra_words(parsed, words);
    if (parsed->help) {
        int status = print_extra_help(converter, words, count);
        free(words);
        return status;
    }
    struct extra_conversion conversion = {converter, input_directory, output_directory,
                                          output_filename, words, count, typed,
                                          violation_print};
    char path[4096];
    error_clear();
    int result = extra_conversion_write(&conversion, path, sizeof path);
    if (result == EXIT_OK)
        printf("%s\n", path);
    else
        error_print(program);
    free(words);
    return result;
}

/* The extra converters of the config's extra_converters directories. */
static int load_extras(struct extra_converters *extras)
{
    struct fuel_config config = {0};
    error_clear();
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = extra_converters_find(extras, config.extra_converters.items,
                                       config.extra_converters.count);
    config_free(&config);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_convert(int argc, char **argv, const struct typed_command *typed)
{
    struct extra_converters extras = {0};
    struct parsed_arguments parsed;
    int result = options_parse(&convert_command_line, argc, argv, &parsed);
    if (result == EXIT_OK)
        result = load_extras(&extras);
    if (result == EXIT_OK) {
        const char *dataset = parsed.positional_count > 0 ? parsed.positionals[0] : NULL;
        const struct extra_converter *extra =
            dataset != NULL ? extra_converter_find(&extras, dataset) : NULL;
        result = extra != NULL ? convert_extra(extra, &parsed, typed)
                               : convert_builtin(&parsed, &extras, typed);
    }
    extra_converters_free(&extras);
    parsed_arguments_free(&parsed);
    return result;
}
