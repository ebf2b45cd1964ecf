/* The one way an H5PYDataset file is published: a writer filled into a temporary, its provenance
   and Fuel's attributes written, then renamed whole. */
#include "published_file.h"

#include "common/base/error.h"
#include "common/base/publish.h"

#include <stdio.h>
#include <stdlib.h>

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
                       const struct published_record *record)
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

int published_file_write(const struct published_filler *filler,
                         const struct published_record *record, const char *directory,
                         const char *name, char *path, size_t size)
{
    struct publication publication;
    int result = publish_begin(&publication, directory, name);
    if (result != EXIT_OK)
        return result;
    struct provenance *provenance = NULL;
    struct h5py_writer *writer = NULL;
    if (record->read_through_inputs)
        result = provenance_begin_read(&provenance, record->typed->argc, record->typed->argv,
                                       record->inputs, record->input_names, record->input_count,
                                       record->raw_files, record->supplied, record->apart,
                                       record->published);
    else
        result = provenance_begin_supplied(&provenance, record->typed->argc, record->typed->argv,
                                           record->inputs, record->input_names,
                                           record->input_count, record->raw_files,
                                           record->supplied, record->published);
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
