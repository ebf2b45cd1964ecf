/* fuel-convert NAME for an extra converter: runs fuel-convert-NAME into a temporary file, checks
   the file against the H5PYDataset rules, tags it with provenance and publishes it atomically. */
#include "common/base/error.h"
#include "common/hdf5/h5py_check.h"
#include "common/hdf5/h5py_reader.h"
#include "common/hdf5/h5py_tag.h"
#include "common/hdf5/provenance.h"
#include "common/hdf5/publish.h"
#include "common/base/subprocess.h"
#include "commands.h"
#include "convert.h"
#include "usage.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char program[] = "fuel-convert";

/* A converter prints its inputs one per line; this bounds how much of that we keep. */
enum { INPUT_LIST_MAX_BYTES = 1 << 20, INPUT_MAX_COUNT = 4096 };

struct extra_request {
    const struct extra_converter *converter;
    const char *input_directory;
    const char *output_directory;
    const char *output_filename;
    bool help;
};

/* Whether ARGUMENT, up to LENGTH, is one of NAMES (NULL-terminated). */
static bool named(const char *argument, size_t length, const char *const *names)
{
    for (size_t index = 0; names[index] != NULL; index++)
        if (strlen(names[index]) == length && strncmp(names[index], argument, length) == 0)
            return true;
    return false;
}

/* The field of an option fuel-convert itself reads ("-d", "--directory=X", ...), NULL when
   ARGUMENT is none of them; *VALUE gets the text after '=' when there is one. argv is left as
   typed: it is recorded in the file. */
static const char **own_option(struct extra_request *request, const char *argument,
                               const char **value)
{
    static const char *const input[] = {"-d", "--directory", NULL};
    static const char *const output[] = {"-o", "--output-directory", "--output_directory", NULL};
    static const char *const file[] = {"-r", "--output_filename", "--output-filename", NULL};
    const char *equals = strncmp(argument, "--", 2) == 0 ? strchr(argument, '=') : NULL;
    size_t length = equals != NULL ? (size_t)(equals - argument) : strlen(argument);
    *value = equals != NULL ? equals + 1 : NULL;
    if (named(argument, length, input))
        return &request->input_directory;
    if (named(argument, length, output))
        return &request->output_directory;
    if (named(argument, length, file))
        return &request->output_filename;
    return NULL;
}

/* Takes -d, -o, -r and -h; every other argument but the dataset name goes to the converter. */
static int parse_arguments(struct extra_request *request, int argc, char **argv,
                           char **passed, size_t *passed_count)
{
    bool dataset_seen = false;
    for (int index = 1; index < argc; index++) {
        const char *value;
        const char **target = own_option(request, argv[index], &value);
        if (target != NULL) {
            if (value == NULL && index + 1 >= argc)
                return usage_error(program, "usage error: option %s needs a value", argv[index]);
            *target = value != NULL ? value : argv[++index];
        } else if (strcmp(argv[index], "-h") == 0 || strcmp(argv[index], "--help") == 0) {
            request->help = true;
        } else if (!dataset_seen && strcmp(argv[index], request->converter->name) == 0) {
            dataset_seen = true;
        } else {
            passed[(*passed_count)++] = argv[index];
        }
    }
    return EXIT_OK;
}

/* The converter's argv: PATH -d DIR -o OUTDIR ARGUMENTS... NULL, or PATH -h ARGUMENTS... NULL
   when INPUT_DIRECTORY is NULL (caller frees); NULL when out of memory. */
static char **converter_argv(const struct extra_converter *converter, const char *input_directory,
                             const char *output_directory, char *const *passed, size_t count)
{
    char **arguments = calloc(count + 6, sizeof *arguments);
    if (arguments == NULL) {
        error_set(EXIT_OTHER, "cannot run %s: out of memory", converter->path);
        return NULL;
    }
    char **next = arguments;
    *next++ = converter->path;
    if (input_directory == NULL) {
        *next++ = "-h";
    } else {
        *next++ = "-d";
        *next++ = (char *)input_directory;
        *next++ = "-o";
        *next++ = (char *)output_directory;
    }
    for (size_t index = 0; index < count; index++)
        *next++ = passed[index];
    return arguments;
}

/* "exited with status N" or "was killed by signal N". */
static void describe_status(int status, char *text, size_t size)
{
    if (WIFEXITED(status))
        snprintf(text, size, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(text, size, "was killed by signal %d", WTERMSIG(status));
    else
        snprintf(text, size, "stopped with wait status %d", status);
}

static int print_help(const struct extra_converter *converter, char *const *passed, size_t count)
{
    printf("usage: fuel-convert %s [-d DIR] [-o OUTDIR] [-r NAME] [ARGUMENTS]\n\n"
           "extra converter %s; its own help follows.\n\n", converter->name, converter->path);
    fflush(stdout);
    struct subprocess_result run = {0};
    char **arguments = converter_argv(converter, NULL, NULL, passed, count);
    int result = arguments != NULL
                     ? subprocess_run(arguments, EXTRA_OUTPUT_VARIABLE, "", 1 << 20, &run)
                     : EXIT_OTHER;
    free(arguments);
    if (result == EXIT_OK) {
        fwrite(run.output, 1, run.length, stdout);
        result = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : EXIT_OTHER;
    } else {
        error_print(program);
    }
    free(run.output);
    return result;
}

/* The converter's stdout: one input path per line, blank lines skipped. NUL-terminates each. */
static int input_list(char *output, const char **paths, size_t *count)
{
    *count = 0;
    for (char *line = output, *end; *line != '\0'; line = end) {
        end = line + strcspn(line, "\n");
        if (*end == '\n')
            *end++ = '\0';
        if (line[0] == '\0')
            continue;
        struct stat status;
        if (stat(line, &status) != 0 || !S_ISREG(status.st_mode))
            return error_set(EXIT_CORRUPT_INPUT, "converter listed an input that is no file: %s",
                             line);
        if (*count == INPUT_MAX_COUNT)
            return error_set(EXIT_CORRUPT_INPUT, "converter listed more than %d inputs",
                             INPUT_MAX_COUNT);
        paths[(*count)++] = line;
    }
    return EXIT_OK;
}

/* Prints one line per violation of the H5PYDataset rules; EXIT_CORRUPT_INPUT when any. */
static int check_file(const char *path, const char *converter, const char *status)
{
    struct h5py_file *file = NULL;
    struct h5py_violations violations = {0};
    int result = h5py_reader_open(&file, path);
    if (result != EXIT_OK)
        return error_set(EXIT_CORRUPT_INPUT, "invalid output of %s (it %s): %s", converter, status,
                         error_message());
    result = h5py_check(file, &violations);
    h5py_reader_close(file);
    for (size_t index = 0; result == EXIT_OK && index < violations.count; index++)
        fprintf(stderr, "%s: %s\n", program, violations.lines[index]);
    if (result == EXIT_OK && violations.count > 0)
        result = error_set(EXIT_CORRUPT_INPUT, "invalid output of %s (it %s): %zu violation%s of "
                           "the H5PYDataset rules", converter, status, violations.count,
                           violations.count == 1 ? "" : "s");
    h5py_violations_free(&violations);
    return result;
}

/* Adds fuel-convert's attributes and the provenance of the inputs the converter listed. */
static int tag_file(const char *path, char *output)
{
    const char **inputs = calloc(INPUT_MAX_COUNT, sizeof *inputs);
    if (inputs == NULL)
        return error_set(EXIT_OTHER, "cannot tag %s: out of memory", path);
    size_t count = 0;
    struct provenance *provenance = NULL;
    char *json = NULL, *command = typed_command();
    int result = command != NULL ? input_list(output, inputs, &count)
                                 : error_set(EXIT_OTHER, "cannot tag %s: out of memory", path);
    if (result == EXIT_OK)
        result = provenance_begin(&provenance, typed_argc, typed_argv, inputs, count);
    if (result == EXIT_OK) {
        json = provenance_finish(provenance);
        result = json != NULL ? EXIT_OK : error_code();
    }
    if (result == EXIT_OK)
        result = h5py_tag(path, command, FUEL_VERSION, json);
    free(json);
    free(command);
    free(inputs);
    return result;
}

/* Runs the converter into the temporary file, then checks and tags what it wrote. */
static int convert_into(char *const *arguments, const char *temporary)
{
    struct subprocess_result run;
    const char *converter = arguments[0];
    int result = subprocess_run(arguments, EXTRA_OUTPUT_VARIABLE, temporary, INPUT_LIST_MAX_BYTES,
                                &run);
    char status[64];
    describe_status(run.status, status, sizeof status);
    struct stat file;
    if (result == EXIT_OK && (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0))
        result = error_set(EXIT_CORRUPT_INPUT, "converter failed: %s %s; its output is discarded",
                           converter, status);
    else if (result == EXIT_OK && run.output_cut)
        result = error_set(EXIT_CORRUPT_INPUT, "converter printed more than %d bytes of inputs: %s",
                           INPUT_LIST_MAX_BYTES, converter);
    else if (result == EXIT_OK && (stat(temporary, &file) != 0 || file.st_size == 0))
        result = error_set(EXIT_CORRUPT_INPUT, "converter wrote nothing: %s (it %s) left "
                           EXTRA_OUTPUT_VARIABLE " empty", converter, status);
    if (result == EXIT_OK)
        result = check_file(temporary, converter, status);
    if (result == EXIT_OK)
        result = tag_file(temporary, run.output);
    free(run.output);
    return result;
}

int extra_conversion_write(const struct extra_converter *converter, const char *input_directory,
                           const char *output_directory, const char *output_filename,
                           char *const *passed, size_t count, char *path, size_t size)
{
    char name[1024];
    if (output_filename != NULL)
        output_file_name(output_filename, name, sizeof name);
    else
        snprintf(name, sizeof name, "%s.hdf5", converter->name);
    struct publication publication;
    char **arguments = NULL;
    int result = check_output_directory(output_directory);
    if (result == EXIT_OK)
        result = publish_begin(&publication, output_directory, name);
    if (result != EXIT_OK)
        return result;
    arguments = converter_argv(converter, input_directory, output_directory, passed, count);
    result = arguments != NULL ? convert_into(arguments, publication.temporary_path) : EXIT_OTHER;
    free(arguments);
    if (result == EXIT_OK)
        result = publish_commit(&publication);
    if (result != EXIT_OK) {
        publish_abort(&publication);
        return result;
    }
    snprintf(path, size, "%s", publication.final_path);
    return EXIT_OK;
}

int convert_extra(const struct extra_converter *converter, int argc, char **argv)
{
    struct extra_request request = {
        .converter = converter, .input_directory = ".", .output_directory = "."};
    char **passed = calloc((size_t)argc, sizeof *passed), path[4096];
    size_t count = 0;
    int result = passed != NULL ? parse_arguments(&request, argc, argv, passed, &count)
                                : error_set(EXIT_OTHER, "out of memory");
    error_clear();
    if (result == EXIT_OK && request.help) {
        result = print_help(converter, passed, count);
    } else if (result == EXIT_OK) {
        result = extra_conversion_write(converter, request.input_directory,
                                        request.output_directory, request.output_filename,
                                        passed, count, path, sizeof path);
        if (result == EXIT_OK)
            printf("%s\n", path);
    }
    if (result != EXIT_OK && result != EXIT_USAGE && !request.help)
        error_print(program);
    free(passed);
    return result;
}
