/* fuel-info --json of one file: every split row, source and attribute, and the provenance. */
#include "info_json.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"
#include "info_card.h"
#include "info_published.h"
#include "shown_text.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs of a provenance listed in the document; "provenance_input_count" counts them all. */
#define INFO_JSON_INPUTS 1024

static json_t *optional_string(const char *text)
{
    return text != NULL ? json_string(text) : json_null();
}

/* TEXT as a string of at most SHOWN_LINE_MAX bytes, as the text output cuts a line: cut at a
   character's start and followed by " ... (N more bytes)" (a file may record 256 MiB). */
static json_t *cut_string(const char *text)
{
    size_t length = strnlen(text, SHOWN_LINE_MAX + 1);
    if (length <= SHOWN_LINE_MAX)
        return json_string(text);
    length = SHOWN_LINE_MAX;
    while (length > 0 && ((unsigned char)text[length] & 0xc0) == 0x80)
        length--;
    char cut[SHOWN_LINE_MAX + 64];
    int written = snprintf(cut, sizeof cut, "%.*s ... (%zu more bytes)", (int)length, text,
                           strlen(text + length));
    return json_stringn(cut, (size_t)written);
}

static json_t *attribute_json(const struct h5py_file *file, const char *name)
{
    const char *value = h5py_file_attribute(file, name);
    return value != NULL ? cut_string(value) : json_null();
}

static json_t *string_array(char *const *items, size_t count)
{
    json_t *array = json_array();
    for (size_t index = 0; index < count; index++)
        json_array_append_new(array, json_string(items[index]));
    return array;
}

static json_t *row_json(const struct h5py_split_row *row)
{
    static const char *const layouts[] = {"contiguous", "indices", "dangling"};
    return json_pack("{s:s, s:s, s:I, s:I, s:I, s:b, s:s, s:s, s:o}", "split", row->split,
                     "source", row->source, "start", (json_int_t)row->start, "stop",
                     (json_int_t)row->stop, "count", (json_int_t)h5py_split_row_count(row),
                     "available", row->available, "comment", row->comment, "layout",
                     layouts[row->indices],
                     "indices", optional_string(row->indices_name));
}

static json_t *source_json(const struct h5py_file_source *source,
                           const struct info_digest *digest)
{
    json_t *object = json_pack("{s:s, s:b}", "name", source->name, "present", source->present);
    if (object == NULL || !source->present)
        return object;
    json_t *shape = json_array();
    for (int axis = 0; axis < source->rank; axis++)
        json_array_append_new(shape, json_integer((json_int_t)source->shape[axis]));
    json_object_set_new(object, "dtype", json_string(source->dtype));
    json_object_set_new(object, "shape", shape);
    json_object_set_new(object, "axis_labels",
                        string_array(source->axis_labels, (size_t)source->rank));
    json_object_set_new(object, "variable_length", json_boolean(source->variable_length));
    if (source->variable_length) {
        json_object_set_new(object, "shapes", optional_string(source->shapes_name));
        json_object_set_new(object, "shape_labels",
                            string_array(source->shape_labels, source->shape_label_count));
    }
    json_object_set_new(object, "digest", optional_string(info_digest_source(digest, source->name)));
    return object;
}

/* The provenance as an object, its inputs list cut to INFO_JSON_INPUTS entries (*INPUTS counts
   them all); its text when it is not JSON. */
static json_t *provenance_json(const struct h5py_file *file, size_t *inputs)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    *inputs = 0;
    if (text == NULL)
        return json_null();
    json_t *provenance = provenance_bounded_parse(text, 0, NULL, INFO_JSON_INPUTS, inputs, NULL,
                                                  NULL);
    return provenance != NULL ? provenance : cut_string(text);
}

static json_t *document_json(const struct h5py_file *file, const char *name,
                             const struct info_digest *digest)
{
    json_t *rows = json_array(), *sources = json_array(), *attributes = json_object();
    for (size_t index = 0; index < file->row_count; index++)
        json_array_append_new(rows, row_json(&file->rows[index]));
    for (size_t index = 0; index < file->source_count; index++)
        json_array_append_new(sources, source_json(&file->sources[index], digest));
    /* The provenance is given parsed, below. */
    for (size_t index = 0; index < file->attribute_count; index++)
        if (strcmp(file->attributes[index].name, "fuel_provenance") != 0)
            json_object_set_new(attributes, file->attributes[index].name,
                                cut_string(file->attributes[index].value));
    char *inputs = info_inputs_line(file);
    size_t input_count;
    json_t *provenance = provenance_json(file, &input_count);
    json_t *document = json_pack(
        "{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}", "file",
        file->path,
        "name", name, "h5py_interface_version", attribute_json(file, "h5py_interface_version"),
        "fuel_convert_version", attribute_json(file, "fuel_convert_version"),
        "fuel_convert_command", attribute_json(file, "fuel_convert_command"),
        "splits", string_array(file->splits, file->split_count), "split_rows", rows, "sources",
        sources, "attributes", attributes, "card", info_card_json(file), "classes",
        info_stored_classes_json(file),
        "provenance", provenance, "provenance_input_count", (json_int_t)input_count,
        "published_inputs", optional_string(inputs), "content_digest",
        optional_string(info_digest_whole(digest)));
    free(inputs);
    json_t *verdict = info_inputs_json(file);
    json_t *published = json_object_get(verdict, "published");
    json_t *details = json_object_get(verdict, "inputs");
    if (document != NULL) {
        json_object_set(document, "published", published != NULL ? published : json_null());
        json_object_set(document, "published_details", details != NULL ? details : json_null());
    }
    json_decref(verdict);
    return document;
}

int info_json_print(const struct h5py_file *file, const char *name,
                    const struct info_digest *digest)
{
    json_t *document = document_json(file, name, digest);
    int result = document == NULL || json_dumpf(document, stdout, JSON_INDENT(2)) != 0
                     ? error_set(EXIT_OTHER, "cannot build the JSON document: %s", file->path)
                     : 0;
    if (result == 0)
        putchar('\n');
    json_decref(document);
    return result;
}
