/* Runs a conversion request, or a filler (a cut fixture's, a pack's), into an atomically published
   HDF5 file with Fuel's attributes and provenance, as fuel-convert, fuel-fetch, fuel-fixture and
   fuel-pack ask. */
#include "conversion.h"

#include "cards/card.h"
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/threads.h"
#include "downloaders/dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void conversion_request_init(struct conversion_request *request, const struct dataset *dataset)
{
    *request = (struct conversion_request){
        .dataset = dataset, .input_directory = ".", .output_directory = "."};
}

/* What the converter of REQUEST is handed; its scratch files go in the output directory, where
   fuel clean looks for what a killed conversion left. */
static void arguments_from(const struct conversion_request *request,
                           struct converter_arguments *arguments)
{
    *arguments = (struct converter_arguments){
        .dataset = request->dataset,
        .input_directory = request->input_directory,
        .scratch_directory = request->output_directory,
        .threads = request->threads > 0 ? request->threads : threads_default(),
        .options = request->options != NULL ? request->options
                                            : request->dataset->converter->option_defaults,
        .progress = request->progress,
    };
}

void conversion_output_name(const struct conversion_request *request, char *name, size_t size)
{
    struct converter_arguments arguments;
    arguments_from(request, &arguments);
    if (request->output_name != NULL)
        publish_file_name(request->output_name, name, size);
    else
        converter_name_output(request->dataset->converter, &arguments, name, size);
}

void conversion_inputs_list(const struct conversion_request *request,
                            struct conversion_inputs *inputs)
{
    const struct converter *converter = request->dataset->converter;
    struct converter_arguments arguments;
    arguments_from(request, &arguments);
    inputs->count = converter->input_count;
    for (size_t index = 0; index < inputs->count; index++) {
        converter_input_path(&arguments, converter->inputs[index], inputs->paths[index],
                             sizeof inputs->paths[index]);
        inputs->list[index] = inputs->paths[index];
    }
}

/* CARD as the file's fuel_card: compact JSON, the class names of sources the file lacks (SVHN
   format 1's bbox_labels in a format 2 file) left out. NULL when there is no card. */
static char *card_text(json_t *card, const struct h5py_writer *writer)
{
    if (card == NULL)
        return NULL;
    json_t *classes = json_object_get(card, "classes");
    const char *source;
    json_t *names, *kept = json_object();
    json_object_foreach(classes, source, names)
        if (h5py_writer_has_source(writer, source))
            json_object_set(kept, source, names);
    json_object_set_new(card, "classes", kept);
    return json_dumps(card, JSON_COMPACT);
}

static int finish_file(struct h5py_writer *writer, struct provenance *provenance,
                       const struct conversion_record *record)
{
    struct provenance_notes notes = {record->note_key, record->note, record->notes};
    char *json = provenance_finish_noted(provenance, &notes);
    char *command = typed_command_text(record->typed);
    char *card = card_text(record->card, writer);
    if (json == NULL || command == NULL || (record->card != NULL && card == NULL)) {
        free(json);
        free(command);
        free(card);
        h5py_writer_discard(writer);
        return json == NULL ? error_code() : error_set(EXIT_OTHER, "out of memory");
    }
    struct h5py_attributes attributes = {command, FUEL_VERSION, json, card};
    int result = h5py_writer_finish(writer, &attributes);
    free(json);
    free(command);
    free(card);
    return result;
}

static int write_published(const struct conversion_filler *filler,
                           const struct conversion_record *record, const char *directory,
                           const char *name, char *path, size_t size)
{
    struct publication publication;
    int result = publish_begin(&publication, directory, name);
    if (result != EXIT_OK)
        return result;
    struct provenance *provenance = NULL;
    struct h5py_writer *writer = NULL;
    result = provenance_begin_supplied(&provenance, record->typed->argc, record->typed->argv,
                                       record->inputs, record->input_names, record->input_count,
                                       record->raw_files, record->supplied);
    for (size_t index = 0; result == EXIT_OK && record->published != NULL &&
                           index < record->input_count; index++)
        if (record->published[index] != NULL)
            provenance_content_published(provenance, index, record->published[index]);
    if (result == EXIT_OK)
        result = h5py_writer_create(&writer, publication.temporary_path);
    if (result == EXIT_OK)
        result = filler->fill(filler->context, writer, provenance);
    if (result == EXIT_OK) {
        result = finish_file(writer, provenance, record);
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

static int converter_fill(void *context, struct h5py_writer *writer,
                          struct provenance *provenance)
{
    (void)provenance;
    const struct converter_arguments *arguments = context;
    return arguments->dataset->converter->convert(arguments, writer);
}

int conversion_run(const struct conversion_request *request, char *path, size_t size)
{
    int result = publish_directory_create(request->output_directory);
    if (result != EXIT_OK)
        return result;
    struct converter_arguments arguments;
    struct conversion_inputs inputs;
    char name[1024];
    arguments_from(request, &arguments);
    conversion_inputs_list(request, &inputs);
    conversion_output_name(request, name, sizeof name);
    struct conversion_filler filler = {converter_fill, &arguments};
    arguments.notes = json_object();
    const struct dataset_card *card = card_find(request->dataset->name);
    arguments.card = card != NULL ? card_json(card) : NULL;
    if (arguments.notes == NULL || (card != NULL && arguments.card == NULL)) {
        json_decref(arguments.notes);
        json_decref(arguments.card);
        return error_set(EXIT_OTHER, "out of memory");
    }
    const char *published[CONVERTER_MAX_INPUTS] = {NULL};
    for (size_t index = 0; index < inputs.count; index++) {
        const struct dataset_file *file =
            &request->dataset->files[request->dataset->converter->inputs[index]];
        if (file->content_sha256 != NULL)
            published[index] = file->checksum;
    }
    struct conversion_record record = {.inputs = inputs.list,
                                       .input_count = inputs.count,
                                       .published = published,
                                       .note_key = "fixture",
                                       .note = request->fixture_note,
                                       .typed = request->typed,
                                       .notes = arguments.notes,
                                       .card = arguments.card,
                                       .raw_files = true};
    result = write_published(&filler, &record, request->output_directory, name, path, size);
    json_decref(arguments.notes);
    json_decref(arguments.card);
    return result;
}

int conversion_write_filled(const struct conversion_filler *filler,
                            const struct conversion_record *record, const char *directory,
                            const char *name, char *path, size_t size)
{
    return write_published(filler, record, directory, name, path, size);
}

int conversion_write_fixture(const struct conversion_filler *filler, const char *const *inputs,
                             size_t input_count, json_t *note, const char *directory,
                             const char *name, const struct typed_command *typed, char *path,
                             size_t size)
{
    struct conversion_record record = {.inputs = inputs, .input_count = input_count,
                                       .note_key = "fixture", .note = note, .typed = typed};
    return write_published(filler, &record, directory, name, path, size);
}
