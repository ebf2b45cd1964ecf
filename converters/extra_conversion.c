/* Runs an extra converter (fuel-convert-NAME) into a temporary file, checks the file against the
   H5PYDataset rules, tags it with provenance and publishes it atomically. */
#include "extra_conversion.h"

#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "common/h5py/h5py_reader.h"
#include "common/h5py/h5py_tag.h"
#include "common/base/publish.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* A converter prints its inputs one per line; this bounds how much of that we keep. */
enum { INPUT_LIST_MAX_BYTES = 1 << 20, INPUT_MAX_COUNT = 4096, HELP_MAX_BYTES = 1 << 20 };

/* The converter's argv: PATH -d DIR -o OUTDIR ARGUMENTS... NULL, or PATH -h ARGUMENTS... NULL
   when INPUT_DIRECTORY is NULL (caller frees); NULL when out of memory. */
static char **converter_argv(const struct extra_converter *converter, const char *input_directory,
                             const char *output_directory, const char *const *passed, size_t count)
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
        *next++ = (char *)passed[index];
    return arguments;
}

int extra_conversion_help(const struct extra_converter *converter, const char *const *arguments,
                          size_t count, struct subprocess_result *run)
{
    *run = (struct subprocess_result){0};
    char **command = converter_argv(converter, NULL, NULL, arguments, count);
    int result = command != NULL
                     ? subprocess_run(command, EXTRA_OUTPUT_VARIABLE, "", HELP_MAX_BYTES, run)
                     : EXIT_OTHER;
    free(command);
    return result;
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

/* Tells VIOLATION each violation of the H5PYDataset rules; EXIT_CORRUPT_INPUT when any. */
static int check_file(const char *path, const char *converter, const char *status,
                      void (*violation)(const char *line))
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
        violation(violations.lines[index]);
    if (result == EXIT_OK && violations.count > 0)
        result = error_set(EXIT_CORRUPT_INPUT, "invalid output of %s (it %s): %zu violation%s of "
                           "the H5PYDataset rules", converter, status, violations.count,
                           violations.count == 1 ? "" : "s");
    h5py_violations_free(&violations);
    return result;
}

/* Adds fuel-convert's attributes and the provenance of the inputs the converter listed. */
static int tag_file(const char *path, char *output, const struct typed_command *typed)
{
    const char **inputs = calloc(INPUT_MAX_COUNT, sizeof *inputs);
    if (inputs == NULL)
        return error_set(EXIT_OTHER, "cannot tag %s: out of memory", path);
    size_t count = 0;
    struct provenance *provenance = NULL;
    char *json = NULL, *command = typed_command_text(typed);
    int result = command != NULL ? input_list(output, inputs, &count)
                                 : error_set(EXIT_OTHER, "cannot tag %s: out of memory", path);
    if (result == EXIT_OK)
        result = provenance_begin(&provenance, typed->argc, typed->argv, inputs, count, true);
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

/* What the converter's run says is wrong, before its file is looked at; EXIT_OK when nothing. */
static int run_failure(const struct subprocess_result *run, const char *converter,
                       const char *status, const char *temporary)
{
    struct stat file;
    if (!WIFEXITED(run->status) || WEXITSTATUS(run->status) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "converter failed: %s %s; its output is discarded",
                         converter, status);
    if (run->output_cut)
        return error_set(EXIT_CORRUPT_INPUT, "converter printed more than %d bytes of inputs: %s",
                         INPUT_LIST_MAX_BYTES, converter);
    if (stat(temporary, &file) != 0 || file.st_size == 0)
        return error_set(EXIT_CORRUPT_INPUT, "converter wrote nothing: %s (it %s) left "
                         EXTRA_OUTPUT_VARIABLE " empty", converter, status);
    return EXIT_OK;
}

/* Runs the converter into the temporary file, then checks and tags what it wrote. */
static int convert_into(char *const *arguments, const char *temporary,
                        const struct extra_conversion *conversion)
{
    struct subprocess_result run = {0};
    const char *converter = arguments[0];
    int result = subprocess_run(arguments, EXTRA_OUTPUT_VARIABLE, temporary, INPUT_LIST_MAX_BYTES,
                                &run);
    char status[64];
    describe_status(run.status, status, sizeof status);
    if (result == EXIT_OK)
        result = run_failure(&run, converter, status, temporary);
    if (result == EXIT_OK)
        result = check_file(temporary, converter, status, conversion->violation);
    if (result == EXIT_OK)
        result = tag_file(temporary, run.output, conversion->typed);
    free(run.output);
    return result;
}

int extra_conversion_write(const struct extra_conversion *conversion, char *path, size_t size)
{
    char name[1024];
    if (conversion->output_filename != NULL)
        publish_file_name(conversion->output_filename, name, sizeof name);
    else
        snprintf(name, sizeof name, "%s.hdf5", conversion->converter->name);
    struct publication publication;
    int result = publish_directory_create(conversion->output_directory);
    if (result == EXIT_OK)
        result = publish_begin(&publication, conversion->output_directory, name);
    if (result != EXIT_OK)
        return result;
    char **arguments = converter_argv(conversion->converter, conversion->input_directory,
                                      conversion->output_directory, conversion->arguments,
                                      conversion->argument_count);
    result = arguments != NULL
                 ? convert_into(arguments, publication.temporary_path, conversion)
                 : EXIT_OTHER;
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
