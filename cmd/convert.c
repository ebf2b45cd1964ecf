/* fuel-convert: parses options, checks inputs, and runs a converter into an atomically published file. */
#include "../common/error.h"
#include "../common/h5py_writer.h"
#include "../common/provenance.h"
#include "../common/publish.h"
#include "../converters/converter.h"
#include "commands.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *program = "fuel-convert";

struct convert_request {
    const char *dataset;
    const char *variant;
    const char *input_directory;
    const char *output_directory;
    const char *output_filename;
    const struct converter *converter;
    struct converter_arguments arguments;
};

static void print_overview(FILE *stream)
{
    fprintf(stream,
            "usage: fuel-convert [-h] DATASET [FORMAT] [-d DIR] [-o OUTDIR] [-r NAME] [OPTIONS]\n\n"
            "Converts the raw files of DATASET in DIR (default: the current directory) into\n"
            "one HDF5 file in OUTDIR (default: the current directory).\n\ndatasets:\n");
    for (size_t index = 0; converters[index] != NULL; index++) {
        const struct converter *converter = converters[index];
        char name[64];
        snprintf(name, sizeof name, "%s%s%s", converter->name, converter->variant ? " " : "",
                 converter->variant ? converter->variant : "");
        fprintf(stream, "  %-16s %s\n", name, converter->summary);
    }
    fprintf(stream, "\n'fuel-convert DATASET -h' lists a dataset's inputs and options.\n");
}

static void print_converter_help(const struct converter *converter)
{
    struct converter_arguments defaults = {.input_directory = "."};
    for (size_t index = 0; index < converter->option_count; index++)
        defaults.values[index] = converter->options[index].default_value;
    struct converter_inputs inputs = {0};
    converter->inputs(&defaults, &inputs);
    char output[256];
    converter->output_name(&defaults, output, sizeof output);
    printf("usage: fuel-convert %s%s%s [-d DIR] [-o OUTDIR] [-r NAME]", converter->name,
           converter->variant ? " " : "", converter->variant ? converter->variant : "");
    for (size_t index = 0; index < converter->option_count; index++)
        printf(" [%s VALUE]", converter->options[index].name);
    printf("\n\n%s\n\ninputs (in DIR):\n", converter->summary);
    for (size_t index = 0; index < inputs.count; index++)
        printf("  %s\n", inputs.names[index]);
    printf("\noutput (in OUTDIR): %s\n\noptions:\n", output);
    printf("  -d, --directory DIR         where the input files are (default: .)\n"
           "  -o, --output-directory DIR  where to write the output (default: .)\n"
           "  -r, --output_filename NAME  output file name (.hdf5 added without .hdf5/.hdf/.h5)\n");
    for (size_t index = 0; index < converter->option_count; index++) {
        const struct converter_option *option = &converter->options[index];
        printf("  %s {", option->name);
        for (size_t choice = 0; option->choices[choice] != NULL; choice++)
            printf("%s%s", choice ? "," : "", option->choices[choice]);
        printf("}\n      %s (default: %s)\n", option->help, option->default_value);
    }
}

static int usage_error(const char *format, const char *value)
{
    fprintf(stderr, "%s: usage error: ", program);
    fprintf(stderr, format, value);
    fprintf(stderr, "; see 'fuel-convert -h'\n");
    return EXIT_USAGE;
}

/* Picks the converter of DATASET, and of its FORMAT when it has several. */
static int find_converter(struct convert_request *request)
{
    const struct converter *match = NULL;
    bool known = false;
    for (size_t index = 0; converters[index] != NULL; index++) {
        const struct converter *converter = converters[index];
        if (strcmp(converter->name, request->dataset) != 0)
            continue;
        known = true;
        if (converter->variant == NULL ||
            (request->variant != NULL && strcmp(converter->variant, request->variant) == 0))
            match = converter;
    }
    if (!known)
        return usage_error("unknown dataset: %s", request->dataset);
    if (match == NULL)
        return usage_error(request->variant ? "unknown format: %s" : "missing format of %s",
                           request->variant ? request->variant : request->dataset);
    request->converter = match;
    for (size_t index = 0; index < match->option_count; index++)
        request->arguments.values[index] = match->options[index].default_value;
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
    const struct converter *converter = request->converter;
    for (size_t index = 0; index < converter->option_count; index++) {
        const struct converter_option *option = &converter->options[index];
        if (strcmp(option->name, name) != 0)
            continue;
        if (value == NULL)
            return usage_error("option %s needs a value", name);
        for (size_t choice = 0; option->choices[choice] != NULL; choice++)
            if (strcmp(option->choices[choice], value) == 0) {
                request->arguments.values[index] = option->choices[choice];
                return EXIT_OK;
            }
        return usage_error("invalid choice: %s", value);
    }
    return usage_error("unknown option: %s", name);
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
    else
        *matched = false;
    if (target == NULL)
        return EXIT_OK;
    if (value == NULL)
        return usage_error("option %s needs a value", name);
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
    return usage_error("unexpected argument: %s", argument);
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
            return usage_error("too many options: %s", argument);
        if (!matched) {
            pending[pending_count++] = argument;
            pending[pending_count++] = (char *)value;
        }
    }
    if (*help && request->dataset == NULL)
        return EXIT_OK;
    if (request->dataset == NULL)
        return usage_error("missing dataset%s", "");
    int result = find_converter(request);
    for (size_t index = 0; result == EXIT_OK && index < pending_count; index += 2)
        result = set_converter_option(request, pending[index], pending[index + 1]);
    return result;
}

static int check_inputs(const struct convert_request *request, char paths[][4096],
                        const char **path_list, size_t *count)
{
    struct converter_inputs inputs = {0};
    request->converter->inputs(&request->arguments, &inputs);
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

static void output_name(const struct convert_request *request, char *name, size_t size)
{
    if (request->output_filename == NULL) {
        request->converter->output_name(&request->arguments, name, size);
        return;
    }
    const char *extension = strrchr(request->output_filename, '.');
    bool known = extension != NULL &&
                 (strcmp(extension, ".hdf5") == 0 || strcmp(extension, ".hdf") == 0 ||
                  strcmp(extension, ".h5") == 0);
    snprintf(name, size, "%s%s", request->output_filename, known ? "" : ".hdf5");
}

static char *typed_command(void)
{
    size_t length = 1;
    for (int index = 0; index < typed_argc; index++)
        length += strlen(typed_argv[index]) + 1;
    char *command = malloc(length);
    if (command == NULL)
        return NULL;
    char *first = strdup(typed_argv[0]);
    snprintf(command, length, "%s", first ? basename(first) : typed_argv[0]);
    free(first);
    for (int index = 1; index < typed_argc; index++) {
        strcat(command, " ");
        strcat(command, typed_argv[index]);
    }
    return command;
}

static int finish_file(struct h5py_writer *writer, struct provenance *provenance)
{
    char *json = provenance_finish(provenance);
    char *command = typed_command();
    if (json == NULL || command == NULL) {
        free(json);
        free(command);
        h5py_writer_discard(writer);
        return json == NULL ? error_code() : error_set(EXIT_OTHER, "out of memory");
    }
    struct h5py_attributes attributes = {command, FUEL_VERSION, json};
    int result = h5py_writer_finish(writer, &attributes);
    free(json);
    free(command);
    return result;
}

static int write_output(const struct convert_request *request, const char *const *inputs,
                        size_t input_count, const char *name)
{
    struct publication publication;
    int result = publish_begin(&publication, request->output_directory, name);
    if (result != EXIT_OK)
        return result;
    struct provenance *provenance = NULL;
    struct h5py_writer *writer = NULL;
    result = provenance_begin(&provenance, typed_argc, typed_argv, inputs, input_count);
    if (result == EXIT_OK)
        result = h5py_writer_create(&writer, publication.temporary_path);
    if (result == EXIT_OK)
        result = request->converter->convert(&request->arguments, writer);
    if (result == EXIT_OK) {
        result = finish_file(writer, provenance);
        provenance = NULL;
        writer = NULL;
    }
    if (result == EXIT_OK)
        result = publish_commit(&publication);
    if (result != EXIT_OK) {
        h5py_writer_discard(writer);
        provenance_discard(provenance);
        publish_abort(&publication);
        return result;
    }
    printf("%s\n", publication.final_path);
    return EXIT_OK;
}

static int check_output_directory(const char *directory)
{
    struct stat status;
    if (stat(directory, &status) != 0 || !S_ISDIR(status.st_mode))
        return error_set(EXIT_WRITE, "cannot write output: %s: not an existing directory",
                         directory);
    return EXIT_OK;
}

int cmd_convert(int argc, char **argv)
{
    struct convert_request request = {.input_directory = ".", .output_directory = "."};
    bool help = false;
    int result = parse_arguments(&request, argc, argv, &help);
    if (result != EXIT_OK)
        return result;
    if (help && request.converter == NULL) {
        print_overview(stdout);
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
