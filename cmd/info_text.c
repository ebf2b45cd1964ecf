/* fuel-info's text output of one file: Fuel's metadata block, the splits and sources tables, the
   other attributes and the provenance. */
#include "info_text.h"

#include "common/base/provenance_inputs.h"
#include "info_card.h"
#include "info/info_fixture.h"
#include "info_published.h"
#include "table.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs a provenance lists shown in its table; a longer list is counted. */
#define INFO_INPUTS_SHOWN 10

static const char *const shown_apart[] = {"h5py_interface_version", "fuel_convert_version",
                                          "fuel_convert_command", "fuel_provenance",
                                          "fuel_card"};


const char *attribute_or_not_available(const struct h5py_file *file, const char *name)
{
    const char *value = h5py_file_attribute(file, name);
    return value != NULL ? value : "N/A";
}

/* Fuel's own fuel-info output, word for word. */
static void fuel_block_print(const struct h5py_file *file, const char *name)
{
    int length = printf("\nMetadata for %s\n", name) - 2;
    for (int column = 0; column < length; column++)
        putchar('=');
    printf("\n\n    The command used to generate this file is\n\n        %s\n\n",
           attribute_or_not_available(file, "fuel_convert_command"));
    printf("    Relevant versions are\n\n        H5PYDataset     %s\n"
           "        fuel.converters %s\n\n",
           attribute_or_not_available(file, "h5py_interface_version"),
           attribute_or_not_available(file, "fuel_convert_version"));
}

static char *row_layout_text(const struct h5py_split_row *row)
{
    if (row->indices == INDICES_DATASET)
        return strdup(row->indices_name);
    return strdup(row->indices == INDICES_NONE ? "contiguous" : "dangling reference");
}

static int splits_print(const struct h5py_file *file)
{
    static const bool right[] = {false, false, true, true, true, false, false, false};
    struct table table = {.indent = 4, .columns = 8, .right_aligned = right};
    char *header[] = {strdup("split"), strdup("source"), strdup("start"), strdup("stop"),
                      strdup("count"), strdup("available"), strdup("comment"), strdup("indices")};
    int result = table_add(&table, header);
    for (size_t index = 0; index < file->row_count && result == 0; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        char *cells[] = {strdup(row->split), strdup(row->source),
                         cell_text("%" PRId64, row->start), cell_text("%" PRId64, row->stop),
                         cell_text("%" PRIu64, h5py_split_row_count(row)),
                         strdup(row->available ? "yes" : "no"), strdup(row->comment),
                         row_layout_text(row)};
        result = table_add(&table, cells);
    }
    return table_finish(&table, "Splits\n\n", result);
}

static char *shape_text(const struct h5py_file_source *source)
{
    char *text = strdup("(");
    for (int axis = 0; axis < source->rank && text != NULL; axis++) {
        char *longer = cell_text("%s%s%" PRIu64 "%s", text, axis > 0 ? ", " : "",
                                 source->shape[axis], source->rank == 1 ? ",)" : "");
        free(text);
        text = longer;
    }
    if (text != NULL && source->rank != 1) {
        char *closed = cell_text("%s)", text);
        free(text);
        text = closed;
    }
    return text;
}

static char *labels_text(char *const *labels, size_t count)
{
    size_t length = 1;
    for (size_t index = 0; index < count; index++)
        length += strlen(labels[index][0] != '\0' ? labels[index] : "-") + 2;
    char *text = calloc(1, length);
    for (size_t index = 0; index < count && text != NULL; index++) {
        if (index > 0)
            strcat(text, ", ");
        strcat(text, labels[index][0] != '\0' ? labels[index] : "-");
    }
    return text;
}

static char *variable_length_text(const struct h5py_file_source *source)
{
    if (!source->variable_length)
        return strdup("");
    char *labels = labels_text(source->shape_labels, source->shape_label_count);
    char *text = labels == NULL ? NULL
                 : source->shapes_name == NULL
                     ? cell_text("variable-length, no shapes scale")
                     : cell_text("variable-length; shapes %s (%" PRIu64 " x %" PRIu64
                                 "); shape labels %s",
                                 source->shapes_name, source->shapes_rows,
                                 source->shapes_columns, labels[0] ? labels : "none");
    free(labels);
    return text;
}

static int source_cells(const struct h5py_file_source *source, char **cells)
{
    cells[0] = strdup(source->name);
    if (!source->present) {
        cells[1] = strdup("-");
        cells[2] = strdup("-");
        cells[3] = strdup("-");
        cells[4] = strdup("missing: no such dataset in the file");
        return 0;
    }
    cells[1] = strdup(source->dtype);
    cells[2] = shape_text(source);
    cells[3] = labels_text(source->axis_labels, (size_t)source->rank);
    cells[4] = variable_length_text(source);
    return 0;
}

static int sources_print(const struct h5py_file *file)
{
    static const bool right[] = {false, false, false, false, false};
    struct table table = {.indent = 4, .columns = 5, .right_aligned = right};
    char *header[] = {strdup("source"), strdup("dtype"), strdup("shape"), strdup("axis labels"),
                      strdup("")};
    int result = table_add(&table, header);
    for (size_t index = 0; index < file->source_count && result == 0; index++) {
        char *cells[5];
        source_cells(&file->sources[index], cells);
        result = table_add(&table, cells);
    }
    return table_finish(&table, "\nSources\n\n", result);
}

static bool is_shown_apart(const char *name)
{
    for (size_t index = 0; index < sizeof shown_apart / sizeof shown_apart[0]; index++)
        if (strcmp(shown_apart[index], name) == 0)
            return true;
    return false;
}

static void attributes_print(const struct h5py_file *file)
{
    bool first = true;
    for (size_t index = 0; index < file->attribute_count; index++) {
        const struct h5py_attribute *attribute = &file->attributes[index];
        if (is_shown_apart(attribute->name))
            continue;
        if (first)
            printf("\nAttributes\n\n");
        first = false;
        printf("    %s: %s\n", attribute->name, attribute->value);
    }
}

/* A JSON scalar as text: strings bare, everything else as JSON writes it. */
static char *scalar_text(json_t *value)
{
    if (json_is_string(value))
        return strdup(json_string_value(value));
    return json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* Objects of FIELDS scalars each, e.g. the inputs: the first value bare, then "key value"
   pairs, aligned in columns. */
static int object_list_print(json_t *list, size_t fields)
{
    bool right[16] = {false};
    struct table table = {.indent = 8, .columns = fields * 2 - 1, .right_aligned = right};
    size_t index;
    json_t *item;
    int result = 0;
    json_array_foreach(list, index, item) {
        char *cells[16];
        const char *key;
        json_t *value;
        size_t column = 0;
        json_object_foreach(item, key, value) {
            if (column > 0)
                cells[column++] = strdup(key);
            right[column] = json_is_integer(value);
            cells[column++] = scalar_text(value);
        }
        if ((result = table_add(&table, cells)) != 0)
            break;
    }
    return table_finish(&table, "", result);
}

static bool uniform_objects(json_t *list, size_t *fields)
{
    size_t index;
    json_t *item;
    *fields = json_object_size(json_array_get(list, 0));
    json_array_foreach(list, index, item) {
        const char *key;
        json_t *value;
        if (!json_is_object(item) || json_object_size(item) != *fields)
            return false;
        json_object_foreach(item, key, value)
            if (json_is_object(value) || json_is_array(value))
                return false;
    }
    return *fields > 0 && *fields <= 8;
}

static bool multiline(json_t *value)
{
    return json_is_string(value) && strchr(json_string_value(value), '\n') != NULL;
}

/* A text of several lines (fuel pack's spec) below its key, each line indented. */
static void multiline_print(const char *key, json_t *value)
{
    const char *text = json_string_value(value);
    printf("        %s:\n", key);
    while (*text != '\0') {
        const char *end = strchr(text, '\n');
        size_t length = end != NULL ? (size_t)(end - text) : strlen(text);
        printf("            %.*s\n", (int)length, text);
        text += length + (end != NULL);
    }
}

/* The scalars of OBJECT as a table of keys and values, then its texts of several lines. */
static int object_print(json_t *object)
{
    static const bool right[] = {false, false};
    struct table table = {.indent = 8, .columns = 2, .right_aligned = right};
    const char *key;
    json_t *value;
    int result = 0;
    json_object_foreach(object, key, value) {
        if (multiline(value))
            continue;
        char *cells[] = {strdup(key), scalar_text(value)};
        if ((result = table_add(&table, cells)) != 0)
            break;
    }
    result = table_finish(&table, "", result);
    json_object_foreach(object, key, value)
        if (result == 0 && multiline(value))
            multiline_print(key, value);
    return result;
}

/* One provenance entry: a scalar or a list of scalars on its line, an object or a list of
   objects as an indented table below it. */
static int provenance_entry_print(const char *key, json_t *value)
{
    size_t fields;
    printf("    %s:", key);
    if (json_is_object(value)) {
        putchar('\n');
        return object_print(value);
    }
    if (json_is_array(value) && json_array_size(value) > 0 && uniform_objects(value, &fields)) {
        putchar('\n');
        return object_list_print(value, fields);
    }
    size_t index;
    json_t *item;
    if (!json_is_array(value)) {
        char *text = scalar_text(value);
        printf(" %s\n", text != NULL ? text : "?");
        free(text);
        return 0;
    }
    json_array_foreach(value, index, item) {
        char *text = scalar_text(item);
        printf(" %s", text != NULL ? text : "?");
        free(text);
    }
    putchar('\n');
    return 0;
}

static int provenance_print(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    if (text == NULL)
        return 0;
    size_t inputs;
    json_t *provenance = provenance_bounded_parse(text, 0, NULL, INFO_INPUTS_SHOWN, &inputs,
                                                  NULL, NULL);
    int result = 0;
    printf("\nProvenance\n\n");
    if (!json_is_object(provenance)) {
        printf("    (not a JSON object) %s\n", text);
    } else {
        const char *key;
        json_t *value;
        json_object_foreach(provenance, key, value) {
            if (result == 0)
                result = provenance_entry_print(key, value);
            if (strcmp(key, "inputs") == 0 && inputs > INFO_INPUTS_SHOWN)
                printf("    inputs: %zu in all, the first %d shown\n", inputs, INFO_INPUTS_SHOWN);
        }
    }
    char *line = info_inputs_line(file);
    if (line != NULL)
        printf("    %s\n", line);
    free(line);
    json_decref(provenance);
    return result;
}

int info_text_print(const struct h5py_file *file, const char *name,
                    const struct info_digest *digest)
{
    info_fixture_print(file);
    fuel_block_print(file, name);
    int result = splits_print(file);
    if (result == 0)
        result = sources_print(file);
    if (result == 0) {
        info_stored_classes_print(file);
        attributes_print(file);
        info_card_print(file);
        result = provenance_print(file);
    }
    if (result == 0)
        result = info_digest_print(digest, file);
    return result;
}
