/* Runs a converter into an atomically published HDF5 file with Fuel's attributes and provenance.
   Shared by fuel-convert and fuel-fetch. */
#include "conversion.h"

#include "common/base/error.h"
#include "common/hdf5/provenance.h"
#include "common/hdf5/publish.h"
#include "commands.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, char *path, size_t size)
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
        result = converter->convert(arguments, writer);
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

