/* Runs a converter into an atomically published HDF5 file with Fuel's attributes and provenance,
   as fuel-convert and fuel-fetch do. */
#include "conversion.h"

#include "common/base/error.h"
#include "common/hdf5/publish.h"

#include <stdio.h>
#include <stdlib.h>

void conversion_inputs_list(const struct converter *converter,
                            const struct converter_arguments *arguments,
                            struct conversion_inputs *inputs)
{
    struct converter_inputs names = {0};
    converter_list_inputs(converter, arguments, &names);
    for (size_t index = 0; index < names.count; index++) {
        snprintf(inputs->paths[index], sizeof inputs->paths[index], "%s/%s",
                 arguments->input_directory, names.names[index]);
        inputs->list[index] = inputs->paths[index];
    }
    inputs->count = names.count;
}

static int finish_file(struct h5py_writer *writer, struct provenance *provenance,
                       const struct typed_command *typed)
{
    char *json = provenance_finish(provenance);
    char *command = typed_command_text(typed);
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
                     const char *name, const struct typed_command *typed, char *path,
                     size_t size)
{
    struct publication publication;
    int result = publish_begin(&publication, directory, name);
    if (result != EXIT_OK)
        return result;
    struct provenance *provenance = NULL;
    struct h5py_writer *writer = NULL;
    result = provenance_begin(&provenance, typed->argc, typed->argv, inputs, input_count);
    if (result == EXIT_OK)
        result = h5py_writer_create(&writer, publication.temporary_path);
    if (result == EXIT_OK)
        result = converter->convert(arguments, writer);
    if (result == EXIT_OK) {
        result = finish_file(writer, provenance, typed);
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
