/* fuel-info: what an H5PYDataset file holds: Fuel's metadata block, splits, sources, provenance. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/base/fault_guard.h"
#include "common/h5py/h5py_input.h"
#include "common/h5py/h5py_reader.h"
#include "commands.h"
#include "info_check.h"
#include "info_fixture.h"
#include "usage.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char program[] = "fuel-info";

static bool as_json, check_invariants, verify_inputs;

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .value = &as_json,
     .help = "print JSON instead of text (an array for several files)"},
    {.long_name = "check", .kind = OPTION_FLAG, .value = &check_invariants,
     .help = "check the H5PYDataset invariants; exit 4 with one line per violation"},
    {.long_name = "verify-inputs", .kind = OPTION_FLAG, .value = &verify_inputs,
     .help = "re-hash the raw inputs the provenance names (beside the file or in the data path): "
             "each matching, different (exit 6) or missing (exit 3)"},
};

const struct command_line info_command_line = {
    .program = program,
    .usage = "[-h] [--json] [--check] [--verify-inputs] FILE|NAME...",
    .description =
        "Prints what an H5PYDataset HDF5 file holds: the command and versions that made it, its\n"
        "splits and sources, and its provenance. A NAME that is not an existing file is looked up\n"
        "in the data path (FUEL_DATA_PATH or data_path in ~/.fuelrc). Given several files, prints\n"
        "one line per file: name, dataset, splits with their counts, creation time.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = (size_t)-1,
    .positional_completion = COMPLETE_FILE,
};

/* Root attributes shown in their own sections rather than among the other attributes. */
static const char *const shown_apart[] = {"h5py_interface_version", "fuel_convert_version",
                                          "fuel_convert_command", "fuel_provenance"};

/* --- Text output -------------------------------------------------------------------------- */

/* A table printed with columns as wide as their widest cell; numeric columns right-aligned. */
struct table {
    int indent;
    size_t columns;
    size_t rows;
    char **cells;
    const bool *right_aligned;
};

static char *cell_text(const char *format, ...) __attribute__((format(printf, 1, 2)));

static char *cell_text(const char *format, ...)
{
    va_list arguments;
    char *text = NULL;
    va_start(arguments, format);
    if (vasprintf(&text, format, arguments) < 0)
        text = NULL;
    va_end(arguments);
    return text;
}

static int table_add(struct table *table, char **row)
{
    char **grown = realloc(table->cells, (table->rows + 1) * table->columns * sizeof *grown);
    bool complete = grown != NULL;
    for (size_t column = 0; column < table->columns; column++)
        complete = complete && row[column] != NULL;
    if (!complete) {
        if (grown != NULL)
            table->cells = grown;
        for (size_t column = 0; column < table->columns; column++)
            free(row[column]);
        return error_set(EXIT_OTHER, "out of memory");
    }
    table->cells = grown;
    memcpy(table->cells + table->rows * table->columns, row, table->columns * sizeof *row);
    table->rows++;
    return 0;
}

static void table_print(const struct table *table)
{
    size_t widths[16] = {0};
    for (size_t cell = 0; cell < table->rows * table->columns; cell++) {
        size_t length = strlen(table->cells[cell]);
        if (length > widths[cell % table->columns])
            widths[cell % table->columns] = length;
    }
    for (size_t row = 0; row < table->rows; row++) {
        char **cells = table->cells + row * table->columns;
        size_t shown = table->columns;
        while (shown > 1 && cells[shown - 1][0] == '\0')
            shown--;
        printf("%*s", table->indent, "");
        for (size_t column = 0; column < shown; column++) {
            const char *separator = column > 0 ? "  " : "";
            if (table->right_aligned[column])
                printf("%s%*s", separator, (int)widths[column], cells[column]);
            else if (column + 1 == shown)
                printf("%s%s", separator, cells[column]);
            else
                printf("%s%-*s", separator, (int)widths[column], cells[column]);
        }
        putchar('\n');
    }
}

static void table_free(struct table *table)
{
    for (size_t cell = 0; cell < table->rows * table->columns; cell++)
        free(table->cells[cell]);
    free(table->cells);
}

/* Prints TITLE and TABLE when RESULT is 0, frees TABLE either way; returns RESULT. */
static int table_finish(struct table *table, const char *title, int result)
{
    if (result == 0) {
        fputs(title, stdout);
        table_print(table);
    }
    table_free(table);
    return result;
}

static const char *attribute_or_not_available(const struct h5py_file *file, const char *name)
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

static int object_print(json_t *object)
{
    static const bool right[] = {false, false};
    struct table table = {.indent = 8, .columns = 2, .right_aligned = right};
    const char *key;
    json_t *value;
    int result = 0;
    json_object_foreach(object, key, value) {
        char *cells[] = {strdup(key), scalar_text(value)};
        if ((result = table_add(&table, cells)) != 0)
            break;
    }
    return table_finish(&table, "", result);
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
    json_t *provenance = json_loads(text, 0, NULL);
    int result = 0;
    printf("\nProvenance\n\n");
    if (!json_is_object(provenance)) {
        printf("    (not a JSON object) %s\n", text);
    } else {
        const char *key;
        json_t *value;
        json_object_foreach(provenance, key, value)
            if (result == 0)
                result = provenance_entry_print(key, value);
    }
    json_decref(provenance);
    return result;
}

static int text_print(const struct h5py_file *file, const char *name)
{
    info_fixture_print(file);
    fuel_block_print(file, name);
    int result = splits_print(file);
    if (result == 0)
        result = sources_print(file);
    if (result == 0) {
        attributes_print(file);
        result = provenance_print(file);
    }
    return result;
}

/* --- JSON output -------------------------------------------------------------------------- */

static json_t *optional_string(const char *text)
{
    return text != NULL ? json_string(text) : json_null();
}

static json_t *attribute_json(const struct h5py_file *file, const char *name)
{
    return optional_string(h5py_file_attribute(file, name));
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

static json_t *source_json(const struct h5py_file_source *source)
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
    return object;
}

static json_t *provenance_json(const struct h5py_file *file)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    if (text == NULL)
        return json_null();
    json_t *provenance = json_loads(text, 0, NULL);
    return provenance != NULL ? provenance : json_string(text);
}

static json_t *document_json(const struct h5py_file *file, const char *name)
{
    json_t *rows = json_array(), *sources = json_array(), *attributes = json_object();
    for (size_t index = 0; index < file->row_count; index++)
        json_array_append_new(rows, row_json(&file->rows[index]));
    for (size_t index = 0; index < file->source_count; index++)
        json_array_append_new(sources, source_json(&file->sources[index]));
    for (size_t index = 0; index < file->attribute_count; index++)
        json_object_set_new(attributes, file->attributes[index].name,
                            json_string(file->attributes[index].value));
    return json_pack(
        "{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "file", file->path, "name", name,
        "h5py_interface_version", attribute_json(file, "h5py_interface_version"),
        "fuel_convert_version", attribute_json(file, "fuel_convert_version"),
        "fuel_convert_command", attribute_json(file, "fuel_convert_command"),
        "splits", string_array(file->splits, file->split_count), "split_rows", rows, "sources",
        sources, "attributes", attributes, "provenance", provenance_json(file));
}

static int json_print(const struct h5py_file *file, const char *name)
{
    json_t *document = document_json(file, name);
    int result = document == NULL || json_dumpf(document, stdout, JSON_INDENT(2)) != 0
                     ? error_set(EXIT_OTHER, "cannot build the JSON document: %s", file->path)
                     : 0;
    if (result == 0)
        putchar('\n');
    json_decref(document);
    return result;
}

/* --- The command -------------------------------------------------------------------------- */

static int output_flush(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return 0;
}

/* Opens NAME (a path, or a name in the data path). HDF5's faults are reported as damage from
   here until info_close, as the checks read the file's data too. */
static int info_open(const char *program, const char *name, struct h5py_file **file)
{
    char path[PATH_MAX];
    int result = data_path_resolve(name, path, sizeof path);
    if (result != 0)
        return result;
    fault_guard_set(program, path);
    result = h5py_reader_open(file, path);
    if (result != 0)
        fault_guard_clear();
    return result;
}

static void info_close(struct h5py_file *file)
{
    h5py_reader_close(file);
    fault_guard_clear();
}

static int info_run(const char *program, const char *name, bool as_json)
{
    struct h5py_file *file = NULL;
    int result = info_open(program, name, &file);
    if (result != 0)
        return result;
    const char *base = basename(file->path);
    result = as_json ? json_print(file, base) : text_print(file, base);
    if (result == 0)
        result = output_flush();
    if (result == 0)
        result = h5py_input_verdict(file);
    info_close(file);
    return result;
}

/* --- Several files, --check, --verify-inputs ---------------------------------------------- */

struct info_request {
    bool as_json;
    struct info_check_request check;
    const char *const *names;
    size_t count;
};

/* The dataset named by fuel_convert_command, e.g. "mnist" or "svhn 2": the first word that is
   no option nor an option's value after the program (and after "convert" for "fuel convert"). */
static char *dataset_of(const struct h5py_file *file)
{
    const char *command = h5py_file_attribute(file, "fuel_convert_command");
    char *words = command != NULL ? strdup(command) : NULL, *saved = NULL, *dataset = NULL;
    char *word = words != NULL ? strtok_r(words, " ", &saved) : NULL;
    bool skip_value = false, after_fuel = word != NULL && strcmp(word, "fuel") == 0;
    if (after_fuel)
        word = strtok_r(NULL, " ", &saved);
    while (word != NULL && (word = strtok_r(NULL, " ", &saved)) != NULL) {
        bool option = word[0] == '-';
        if (!option && !skip_value && dataset == NULL)
            dataset = strdup(word);
        else if (!option && !skip_value && dataset != NULL && isdigit((unsigned char)word[0])) {
            char *longer = cell_text("%s %s", dataset, word);
            free(dataset);
            dataset = longer;
            break;
        } else if (!option && !skip_value)
            break;
        skip_value = option && strchr(word, '=') == NULL;
    }
    free(words);
    return dataset != NULL ? dataset : strdup("-");
}

/* The examples of SPLIT: the count of its first available row (a split's sources are equal). */
static uint64_t split_length(const struct h5py_file *file, const char *split)
{
    for (size_t index = 0; index < file->row_count; index++)
        if (file->rows[index].available && strcmp(file->rows[index].split, split) == 0)
            return h5py_split_row_count(&file->rows[index]);
    return 0;
}

/* The provenance's "created", NULL when there is none. */
static char *created_of(const struct h5py_file *file)
{
    json_t *provenance = json_loads(attribute_or_not_available(file, "fuel_provenance"), 0, NULL);
    const char *created = json_string_value(json_object_get(provenance, "created"));
    char *text = created != NULL ? strdup(created) : NULL;
    json_decref(provenance);
    return text;
}

static char *splits_text(const struct h5py_file *file)
{
    char *text = strdup("");
    for (size_t index = 0; index < file->split_count && text != NULL; index++) {
        char *longer = cell_text("%s%s%s %" PRIu64, text, index > 0 ? ", " : "",
                                 file->splits[index], split_length(file, file->splits[index]));
        free(text);
        text = longer;
    }
    return text;
}

static json_t *summary_json(const struct h5py_file *file)
{
    json_t *splits = json_object();
    for (size_t index = 0; index < file->split_count; index++)
        json_object_set_new(splits, file->splits[index],
                            json_integer((json_int_t)split_length(file, file->splits[index])));
    char *dataset = dataset_of(file), *created = created_of(file);
    json_t *summary = json_pack("{s:s, s:s, s:s?, s:o, s:s?}", "file", file->path, "name",
                                basename(file->path), "dataset", dataset, "splits", splits,
                                "created", created);
    free(dataset);
    free(created);
    return summary;
}

static int summary_add(struct table *table, const struct h5py_file *file)
{
    char *created = created_of(file);
    char *cells[] = {strdup(basename(file->path)), dataset_of(file), splits_text(file),
                     strdup(created != NULL ? created : "-")};
    free(created);
    return table_add(table, cells);
}

/* One file of several: its summary, or its check report, into TABLE or DOCUMENT. */
static int info_one(const char *program, const struct info_request *request, const char *name,
                    struct table *table, json_t *document)
{
    struct h5py_file *file = NULL;
    int result = info_open(program, name, &file);
    if (result != 0)
        return result;
    bool checking = request->check.invariants || request->check.inputs;
    json_t *report = NULL;
    if (checking && request->as_json)
        report = json_pack("{s:s}", "file", file->path);
    if (checking)
        result = info_check_file(file, &request->check, report);
    else if (request->as_json)
        report = summary_json(file);
    else
        result = summary_add(table, file);
    if (result == 0 && !checking)
        result = h5py_input_verdict(file);
    if (report != NULL) {
        if (checking)
            json_object_set_new(report, "ok", json_boolean(result == 0));
        json_array_append_new(document, report);
    }
    info_close(file);
    return result;
}

static int document_print(json_t *document, bool single)
{
    json_t *shown = single ? json_array_get(document, 0) : document;
    if (shown == NULL)
        return 0;
    if (json_dumpf(shown, stdout, JSON_INDENT(2)) != 0)
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    putchar('\n');
    return 0;
}

/* Every file is reported, a failure printed as it happens; the first failure's code is kept. */
static int info_several(const char *program, const struct info_request *request)
{
    static const bool right[] = {false, false, false, false};
    struct table table = {.indent = 0, .columns = 4, .right_aligned = right};
    json_t *document = json_array();
    int first_failure = 0;
    for (size_t index = 0; index < request->count; index++) {
        error_clear();
        int result = info_one(program, request, request->names[index], &table, document);
        fflush(stdout);
        if (result != 0)
            error_print(program);
        if (first_failure == 0)
            first_failure = result;
    }
    error_clear();
    int result = request->as_json ? document_print(document, request->count == 1) : 0;
    if (!request->as_json)
        table_print(&table);
    if (result == 0)
        result = output_flush();
    if (result != 0)
        error_print(program);
    table_free(&table);
    json_decref(document);
    return first_failure != 0 ? first_failure : result;
}

static int info_command(const struct parsed_arguments *parsed)
{
    struct info_request request = {
        .as_json = as_json,
        .check = {.invariants = check_invariants, .inputs = verify_inputs},
        .names = parsed->positionals,
        .count = parsed->positional_count,
    };
    if (request.count == 0)
        return usage_error(program, "missing FILE or NAME");
    if (request.count > 1 || check_invariants || verify_inputs)
        return info_several(program, &request);
    error_clear();
    int result = info_run(program, request.names[0], as_json);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_info(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    return options_run(&info_command_line, argc, argv, info_command);
}
