/* Runs a converter, or a fixture's filler, into an atomically published HDF5 file with Fuel's
   attributes and provenance, as fuel-convert, fuel-fetch and fuel-fixture do. */
#include "conversion.h"

#include "common/base/error.h"
#include "common/formats/inflate_file.h"
#include "common/base/publish.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>

void conversion_inputs_list(const struct converter_arguments *arguments,
                            struct conversion_inputs *inputs)
{
    const struct converter *converter = arguments->dataset->converter;
    inputs->count = converter->input_count;
    for (size_t index = 0; index < inputs->count; index++) {
        converter_input_path(arguments, converter->inputs[index], inputs->paths[index],
                             sizeof inputs->paths[index]);
        inputs->list[index] = inputs->paths[index];
    }
}

/* The provenance JSON with NOTE, when given, first under "fixture"; a parent file's sha256 (the
   first input hashed) is copied into NOTE's "parent" (caller frees). */
static char *provenance_with_note(const char *json, json_t *note)
{
    json_t *provenance = json_loads(json, 0, NULL);
    json_t *noted = json_object();
    if (provenance == NULL || noted == NULL) {
        json_decref(provenance);
        json_decref(noted);
        return NULL;
    }
    json_t *parent = json_object_get(note, "parent");
    json_t *input = json_array_get(json_object_get(provenance, "inputs"), 0);
    if (parent != NULL && input != NULL)
        json_object_set(parent, "sha256", json_object_get(input, "sha256"));
    json_object_set(noted, "fixture", note);
    json_object_update(noted, provenance);
    char *text = json_dumps(noted, JSON_COMPACT);
    json_decref(provenance);
    json_decref(noted);
    return text;
}

static int finish_file(struct h5py_writer *writer, struct provenance *provenance, json_t *note,
                       const struct typed_command *typed)
{
    char *json = provenance_finish(provenance);
    char *command = typed_command_text(typed);
    if (json != NULL && note != NULL) {
        char *noted = provenance_with_note(json, note);
        free(json);
        json = noted;
    }
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

static int write_published(const struct conversion_filler *filler, const char *const *inputs,
                           size_t input_count, json_t *note, const char *directory,
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
        result = filler->fill(filler->context, writer);
    if (result == EXIT_OK) {
        result = finish_file(writer, provenance, note, typed);
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

struct converter_run {
    const struct converter *converter;
    const struct converter_arguments *arguments;
};

static int converter_fill(void *context, struct h5py_writer *writer)
{
    const struct converter_run *run = context;
    inflate_file_use_thread(converter_threads(run->arguments) > 1);
    return run->converter->convert(run->arguments, writer);
}

int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, const struct typed_command *typed, char *path,
                     size_t size)
{
    struct converter_run run = {converter, arguments};
    struct conversion_filler filler = {converter_fill, &run};
    return write_published(&filler, inputs, input_count, NULL, directory, name, typed, path,
                           size);
}

int conversion_write_fixture(const struct conversion_filler *filler, const char *const *inputs,
                             size_t input_count, json_t *note, const char *directory,
                             const char *name, const struct typed_command *typed, char *path,
                             size_t size)
{
    return write_published(filler, inputs, input_count, note, directory, name, typed, path, size);
}
