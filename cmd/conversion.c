/* Runs a converter into an atomically published HDF5 file with Fuel's attributes and provenance.
   Shared by fuel-convert and fuel-fetch. */
#include "conversion.h"

#include "common/base/error.h"
#include "common/hdf5/provenance.h"
#include "common/hdf5/publish.h"
#include "commands.h"

#include "usage.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *typed_command(void)
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

/* Draws a converter's stages and counts on one live line. */
struct conversion_listener {
    struct progress *progress;
    const struct converter *converter;
    char label[512];
};

static void listener_stage(void *context, const char *label, uint64_t total)
{
    struct conversion_listener *listener = context;
    const struct converter *converter = listener->converter;
    snprintf(listener->label, sizeof listener->label, "%s%s%s: %s", converter->name,
             converter->variant ? " " : "", converter->variant ? converter->variant : "", label);
    progress_start_count(listener->progress, 0, listener->label, total, "examples");
    progress_redraw(listener->progress);
}

static void listener_advance(void *context, uint64_t done)
{
    struct conversion_listener *listener = context;
    progress_update(listener->progress, 0, done, 0);
    progress_refresh(listener->progress);
}

/* Runs CONVERTER with ARGUMENTS, drawing its progress when MODE is live. */
static int conversion_run(const struct converter *converter,
                          const struct converter_arguments *arguments, enum progress_mode mode,
                          struct h5py_writer *writer)
{
    if (mode != PROGRESS_LIVE)
        return converter->convert(arguments, writer);
    struct conversion_listener listener = {.converter = converter};
    listener.progress = progress_begin(PROGRESS_LIVE, stderr, 1);
    if (listener.progress == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct converter_progress progress = {listener_stage, listener_advance, &listener};
    struct converter_arguments listened = *arguments;
    listened.progress = &progress;
    int result = converter->convert(&listened, writer);
    progress_end(listener.progress);
    return result;
}

int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, enum progress_mode mode, char *path, size_t size)
{
    struct publication publication;
    int result = publish_begin(&publication, directory, name);
    if (result != EXIT_OK)
        return result;
    struct provenance *provenance = NULL;
    struct h5py_writer *writer = NULL;
    result = provenance_begin(&provenance, typed_argc, typed_argv, inputs, input_count);
    if (result == EXIT_OK)
        result = h5py_writer_create(&writer, publication.temporary_path);
    if (result == EXIT_OK)
        result = conversion_run(converter, arguments, mode, writer);
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
    snprintf(path, size, "%s", publication.final_path);
    return EXIT_OK;
}


unsigned conversion_default_threads(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        return 1;
    return online > CONVERSION_MAX_THREADS ? CONVERSION_MAX_THREADS : (unsigned)online;
}

int conversion_parse_threads(const char *program, const char *value, unsigned *threads)
{
    char *end;
    errno = 0;
    long number = value != NULL ? strtol(value, &end, 10) : 0;
    if (value == NULL || errno != 0 || end == value || *end != '\0' || number < 1 ||
        number > CONVERSION_MAX_THREADS)
        return usage_error(program, "usage error: invalid --threads: %s: expected a whole number "
                           "from 1 to %d", value ? value : "(none)", CONVERSION_MAX_THREADS);
    *threads = (unsigned)number;
    return EXIT_OK;
}
