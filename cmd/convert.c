/* fuel-convert: parses options, checks inputs, and runs a converter into an atomically published file. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "converters/converter.h"
#include "commands.h"
#include "conversion.h"
#include "convert.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *program = "fuel-convert";

struct convert_request {
    const char *dataset;
    const char *variant;
    const char *input_directory;
    const char *output_directory;
    const char *output_filename;
    bool quiet;
    const struct converter *converter;
    struct converter_arguments arguments;
};

static void print_overview(FILE *stream, const struct extra_converters *extras)
{
    fprintf(stream,
            "usage: fuel-convert [-h] DATASET [FORMAT] [-d DIR] [-o OUTDIR] [-r NAME] [--threads N]\n"
            "                    [-q] [OPTIONS]\n\n"
            "Converts the raw files of DATASET in DIR (default: the current directory) into\n"
            "one HDF5 file in OUTDIR (default: the current directory), using N threads\n"
            "(default: the online CPUs, %u here). On a terminal a line on stderr shows the\n"
            "progress; -q or a stderr that is not a terminal leaves it out.\n\ndatasets:\n",
            conversion_default_threads());
    for (size_t index = 0; converters[index] != NULL; index++) {
        const struct converter *converter = converters[index];
        char name[64];
        snprintf(name, sizeof name, "%s%s%s", converter->name, converter->variant ? " " : "",
                 converter->variant ? converter->variant : "");
        fprintf(stream, "  %-16s %s\n", name, converter->summary);
    }
    for (size_t index = 0; index < extras->count; index++)
        fprintf(stream, "  %-16s extra converter %s\n", extras->items[index].name,
                extras->items[index].path);
    fprintf(stream, "\n'fuel-convert DATASET -h' lists a dataset's inputs and options.\n");
}

static void print_converter_help(const struct converter *converter)
{
    struct converter_arguments defaults = {.input_directory = "."};
    converter_set_defaults(converter, &defaults);
    struct converter_inputs inputs = {0};
    converter_list_inputs(converter, &defaults, &inputs);
    char output[256];
    converter_name_output(converter, &defaults, output, sizeof output);
    printf("usage: fuel-convert %s%s%s [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q]",
           converter->name,
           converter->variant ? " " : "", converter->variant ? converter->variant : "");
    for (size_t index = 0; index < converter->option_count; index++)
        printf(" [%s VALUE]", converter->options[index].name);
    printf("\n\n%s\n\ninputs (in DIR):\n", converter->summary);
    for (size_t index = 0; index < inputs.count; index++)
        printf("  %s\n", inputs.names[index]);
    printf("\noutput (in OUTDIR): %s\n\noptions:\n", output);
    printf("  -d, --directory DIR         where the input files are (default: .)\n"
           "  -o, --output-directory DIR  where to write the output (default: .)\n"
           "  -r, --output_filename NAME  output file name (.hdf5 added without .hdf5/.hdf/.h5)\n"
           "  --threads N                 worker threads (default: the online CPUs, %u here)\n"
           "  -q, --quiet                 no progress line on a terminal\n",
           conversion_default_threads());
    for (size_t index = 0; index < converter->option_count; index++) {
        const struct converter_option *option = &converter->options[index];
        printf("  %s {", option->name);
        for (size_t choice = 0; option->choices[choice] != NULL; choice++)
            printf("%s%s", choice ? "," : "", option->choices[choice]);
        printf("}\n      %s (default: %s)\n", option->help, option->default_value);
    }
}

/* DATASET -h without a format: the help of each of its formats. */
static void print_formats_help(const char *dataset)
{
    const char *separator = "";
    for (size_t index = 0; converters[index] != NULL; index++)
        if (strcmp(converters[index]->name, dataset) == 0) {
            fputs(separator, stdout);
            print_converter_help(converters[index]);
            separator = "\n";
        }
}

/* Picks the converter of DATASET, and of its FORMAT when it has several. */
static int find_converter(struct convert_request *request)
{
    bool known = converter_find(request->dataset) != NULL;
    const struct converter *match = converter_find_variant(request->dataset, request->variant);
    if (!known)
        return usage_error(program, "usage error: unknown dataset: %s", request->dataset);
    if (match == NULL)
        return usage_error(program, request->variant ? "usage error: unknown format: %s"
                                            : "usage error: missing format of %s",
                           request->variant ? request->variant : request->dataset);
    request->converter = match;
    converter_set_defaults(match, &request->arguments);
    return EXIT_OK;
}

static bool has_variants(const char *dataset)
{
    for (size_t index = 0; converters[index] != NULL; index++)
        if (strcmp(converters[index]->name, dataset) == 0 && converters[index]->variant != NULL)
            return true;
    return false;
}

static int set_converter_option(struct convert_request *request, const char *name,
                                const char *value)
{
    int index = converter_option_index(request->converter, name);
    if (index < 0)
        return usage_error(program, "usage error: unknown option: %s", name);
    if (value == NULL)
        return usage_error(program, "usage error: option %s needs a value", name);
    if (!converter_option_choose(request->converter, index, &request->arguments, value))
        return usage_error(program, "usage error: invalid choice: %s", value);
    return EXIT_OK;
}

/* Splits "--name=value" into NAME and VALUE, or takes VALUE from the next argument. */
static const char *option_value(char *argument, int *index, int argc, char **argv)
{
    char *equals = strchr(argument, '=');
    if (argument[0] == '-' && argument[1] == '-' && equals != NULL) {
        *equals = '\0';
        return equals + 1;
    }
    if (*index + 1 < argc)
        return argv[++*index];
    return NULL;
}

static int parse_common_option(struct convert_request *request, const char *name,
                               const char *value, bool *matched)
{
    const char **target = NULL;
    *matched = true;
    if (strcmp(name, "-d") == 0 || strcmp(name, "--directory") == 0)
        target = &request->input_directory;
    else if (strcmp(name, "-o") == 0 || strcmp(name, "--output-directory") == 0 ||
             strcmp(name, "--output_directory") == 0)
        target = &request->output_directory;
    else if (strcmp(name, "-r") == 0 || strcmp(name, "--output_filename") == 0 ||
             strcmp(name, "--output-filename") == 0)
        target = &request->output_filename;
    else if (strcmp(name, "--threads") == 0)
        return conversion_parse_threads(program, value, &request->arguments.threads);
    else
        *matched = false;
    if (target == NULL)
        return EXIT_OK;
    if (value == NULL)
        return usage_error(program, "usage error: option %s needs a value", name);
    *target = value;
    return EXIT_OK;
}

static int parse_positional(struct convert_request *request, const char *argument)
{
    if (request->dataset == NULL) {
        request->dataset = argument;
        return EXIT_OK;
    }
    if (request->variant == NULL && has_variants(request->dataset)) {
        request->variant = argument;
        return EXIT_OK;
    }
    return usage_error(program, "usage error: unexpected argument: %s", argument);
}

/* Options may come before or after DATASET, as Fuel's argparse allows after it. */
static int parse_arguments(struct convert_request *request, int argc, char **argv, bool *help)
{
    char *pending[2 * CONVERTER_MAX_OPTIONS];
    size_t pending_count = 0;
    for (int index = 1; index < argc; index++) {
        char *argument = argv[index];
        if (strcmp(argument, "-h") == 0 || strcmp(argument, "--help") == 0) {
            *help = true;
            continue;
        }
        if (strcmp(argument, "-q") == 0 || strcmp(argument, "--quiet") == 0) {
            request->quiet = true;
            continue;
        }
        if (argument[0] != '-' || argument[1] == '\0') {
            int result = parse_positional(request, argument);
            if (result != EXIT_OK)
                return result;
            continue;
        }
        const char *value = option_value(argument, &index, argc, argv);
        bool matched;
        int result = parse_common_option(request, argument, value, &matched);
        if (result != EXIT_OK)
            return result;
        if (!matched && pending_count + 2 > sizeof pending / sizeof pending[0])
            return usage_error(program, "usage error: too many options: %s", argument);
        if (!matched) {
            pending[pending_count++] = argument;
            pending[pending_count++] = (char *)value;
        }
    }
    if (*help && (request->dataset == NULL ||
                  (request->variant == NULL && has_variants(request->dataset))))
        return EXIT_OK;
    if (request->dataset == NULL)
        return usage_error(program, "usage error: missing dataset");
    int result = find_converter(request);
    for (size_t index = 0; result == EXIT_OK && index < pending_count; index += 2)
        result = set_converter_option(request, pending[index], pending[index + 1]);
    return result;
}

static int check_inputs(const struct convert_request *request, char paths[][4096],
                        const char **path_list, size_t *count)
{
    struct converter_inputs inputs = {0};
    converter_list_inputs(request->converter, &request->arguments, &inputs);
    size_t missing = 0;
    for (size_t index = 0; index < inputs.count; index++) {
        snprintf(paths[index], 4096, "%s/%s", request->input_directory, inputs.names[index]);
        path_list[index] = paths[index];
        struct stat status;
        if (stat(paths[index], &status) != 0 || !S_ISREG(status.st_mode)) {
            if (missing++ == 0)
                fprintf(stderr, "%s: the following required files were not found:\n", program);
            fprintf(stderr, "   * %s\n", paths[index]);
        }
    }
    *count = inputs.count;
    if (missing == 0)
        return EXIT_OK;
    fprintf(stderr, "Did you forget to run fuel-download?\n");
    return EXIT_MISSING_INPUT;
}

void output_file_name(const char *given, char *name, size_t size)
{
    const char *extension = strrchr(given, '.');
    bool known = extension != NULL &&
                 (strcmp(extension, ".hdf5") == 0 || strcmp(extension, ".hdf") == 0 ||
                  strcmp(extension, ".h5") == 0);
    snprintf(name, size, "%s%s", given, known ? "" : ".hdf5");
}

static void output_name(const struct convert_request *request, char *name, size_t size)
{
    if (request->output_filename == NULL)
        converter_name_output(request->converter, &request->arguments, name, size);
    else
        output_file_name(request->output_filename, name, size);
}

static int write_output(const struct convert_request *request, const char *const *inputs,
                        size_t input_count, const char *name)
{
    char path[4096];
    enum progress_mode mode =
        !request->quiet && isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_QUIET;
    int result = conversion_write(request->converter, &request->arguments, inputs, input_count,
                                  request->output_directory, name, mode, path, sizeof path);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}

int check_output_directory(const char *directory)
{
    struct stat status;
    if (stat(directory, &status) != 0 || !S_ISDIR(status.st_mode))
        return error_set(EXIT_WRITE, "cannot write output: %s: not an existing directory",
                         directory);
    return EXIT_OK;
}

static int convert_builtin(int argc, char **argv, const struct extra_converters *extras)
{
    struct convert_request request = {.input_directory = ".", .output_directory = ".",
                                      .arguments.threads = conversion_default_threads()};
    bool help = false;
    int result = parse_arguments(&request, argc, argv, &help);
    if (result != EXIT_OK)
        return result;
    if (help && request.converter == NULL && request.dataset != NULL) {
        print_formats_help(request.dataset);
        return EXIT_OK;
    }
    if (help && request.converter == NULL) {
        print_overview(stdout, extras);
        return EXIT_OK;
    }
    if (help) {
        print_converter_help(request.converter);
        return EXIT_OK;
    }
    request.arguments.input_directory = request.input_directory;
    request.arguments.scratch_directory = request.output_directory;
    char paths[CONVERTER_MAX_INPUTS][4096];
    const char *path_list[CONVERTER_MAX_INPUTS];
    size_t input_count = 0;
    result = check_inputs(&request, paths, path_list, &input_count);
    if (result != EXIT_OK)
        return result;
    char name[1024];
    output_name(&request, name, sizeof name);
    result = check_output_directory(request.output_directory);
    if (result == EXIT_OK)
        result = write_output(&request, path_list, input_count, name);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

/* The first argument that is neither an option nor the value of -d, -o or -r: the dataset. */
static const char *dataset_argument(int argc, char **argv)
{
    static const char *const valued[] = {"-d", "--directory", "-o", "--output-directory",
                                         "--output_directory", "-r", "--output_filename",
                                         "--output-filename", "--threads"};
    for (int index = 1; index < argc; index++) {
        if (argv[index][0] != '-' || argv[index][1] == '\0')
            return argv[index];
        for (size_t option = 0; option < sizeof valued / sizeof valued[0]; option++)
            if (strcmp(argv[index], valued[option]) == 0) {
                index++;
                break;
            }
    }
    return NULL;
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

/* A copy of ARGV's strings, freed with arguments_free: option parsing splits "--name=value" in
   place, and the typed command must stay as typed for fuel_convert_command. */
static char **arguments_copy(int argc, char **argv)
{
    char **copy = calloc((size_t)argc + 1, sizeof *copy);
    for (int index = 0; copy != NULL && index < argc; index++)
        if ((copy[index] = strdup(argv[index])) == NULL)
            return copy;
    return copy;
}

static void arguments_free(int argc, char **copy)
{
    for (int index = 0; copy != NULL && index < argc; index++)
        free(copy[index]);
    free(copy);
}

static int convert_builtin_copy(int argc, char **argv, const struct extra_converters *extras)
{
    char **copy = arguments_copy(argc, argv);
    bool complete = copy != NULL && (argc == 0 || copy[argc - 1] != NULL);
    int result = complete ? convert_builtin(argc, copy, extras)
                          : error_set(EXIT_OTHER, "out of memory");
    if (!complete)
        error_print(program);
    arguments_free(argc, copy);
    return result;
}

int cmd_convert(int argc, char **argv)
{
    struct extra_converters extras = {0};
    int result = load_extras(&extras);
    if (result == EXIT_OK) {
        const char *dataset = dataset_argument(argc, argv);
        const struct extra_converter *extra =
            dataset != NULL ? extra_converter_find(&extras, dataset) : NULL;
        result = extra != NULL ? convert_extra(extra, argc, argv)
                               : convert_builtin_copy(argc, argv, &extras);
    }
    extra_converters_free(&extras);
    return result;
}
