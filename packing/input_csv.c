/* FILE.csv and FILE.tsv entries: a header row, then one example a row, its chosen columns (the
   source's `columns`, else every one) as numbers: float64, or exact integers when the source's
   dtype is an integer or bool type. */
#include "common/base/error.h"
#include "common/base/suggest.h"
#include "packing/csv_read.h"
#include "input_kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
    struct csv_reader *csv;
    size_t field_count;              /* the header's */
    size_t picked[PACK_MAX_COLUMNS]; /* the fields written, in order */
    size_t column_count;
    char *names[PACK_MAX_COLUMNS]; /* the header's names of the picked fields */
    enum element_type type;
};

struct input_reader {
    struct table table;
    uint64_t examples_per_block;
    void *buffer;
};

/* The type a table's numbers are read as for SOURCE: exact integers for integer and bool
   dtypes, else float64. */
static enum element_type read_type(const struct pack_source *source)
{
    if (!source->has_dtype || source->dtype == ELEMENT_FLOAT32 || source->dtype == ELEMENT_FLOAT64)
        return ELEMENT_FLOAT64;
    return source->dtype == ELEMENT_UINT64 ? ELEMENT_UINT64 : ELEMENT_INT64;
}

static int column_unknown(const struct table *table, char **header, size_t count,
                          const char *name)
{
    struct suggestion suggestion;
    suggestion_begin(&suggestion, name);
    for (size_t field = 0; field < count; field++)
        suggestion_offer(&suggestion, header[field]);
    char ending[256], names[512];
    if (!suggestion_text(&suggestion, ending, sizeof ending)) {
        names_join(names, sizeof names, (const char *const *)header, count);
        snprintf(ending, sizeof ending, "its columns: %.200s", names);
    }
    return error_set(EXIT_CORRUPT_INPUT, "no column %s in %s; %s", name, csv_path(table->csv),
                     ending);
}

/* Reads the header and picks the columns of SOURCE. */
static int header_read(struct table *table, const struct pack_source *source)
{
    char **header;
    size_t count, line;
    int result = csv_next(table->csv, &header, &count, &line);
    if (result != EXIT_OK)
        return result;
    if (count == 0)
        return error_set(EXIT_CORRUPT_INPUT, "malformed CSV: %s: no header row",
                         csv_path(table->csv));
    table->field_count = count;
    table->column_count = source->columns != NULL ? source->column_count : count;
    if (table->column_count > PACK_MAX_COLUMNS)
        return error_set(EXIT_CORRUPT_INPUT, "malformed CSV: %s: more than %d columns",
                         csv_path(table->csv), PACK_MAX_COLUMNS);
    for (size_t column = 0; column < table->column_count; column++) {
        size_t field = column;
        if (source->columns != NULL) {
            field = 0;
            while (field < count && strcmp(header[field], source->columns[column]) != 0)
                field++;
            if (field == count)
                return column_unknown(table, header, count, source->columns[column]);
        }
        table->picked[column] = field;
        table->names[column] = strdup(header[field]);
        if (table->names[column] == NULL)
            return error_set(EXIT_OTHER, "out of memory");
    }
    return EXIT_OK;
}

static int table_open(struct table *table, const struct pack_input *input,
                      const struct pack_source *source)
{
    table->type = read_type(source);
    int result = csv_open(&table->csv, input->path, input->kind == INPUT_TSV ? '\t' : ',');
    return result == EXIT_OK ? header_read(table, source) : result;
}

static void table_close(struct table *table)
{
    csv_close(table->csv);
    for (size_t column = 0; column < table->column_count; column++)
        free(table->names[column]);
}

/* The next row's chosen numbers into VALUES (column_count of the table's type); *FOUND false at
   the end. */
static int row_read(struct table *table, void *values, bool *found)
{
    char **fields;
    size_t count, line;
    int result = csv_next(table->csv, &fields, &count, &line);
    *found = result == EXIT_OK && count > 0;
    if (!*found)
        return result;
    if (count != table->field_count)
        return error_set(EXIT_CORRUPT_INPUT, "malformed CSV: %s:%zu: %zu fields, the header has "
                         "%zu", csv_path(table->csv), line, count, table->field_count);
    for (size_t column = 0; column < table->column_count; column++) {
        const char *field = fields[table->picked[column]];
        bool number = table->type == ELEMENT_FLOAT64
                          ? csv_real(field, (double *)values + column)
                          : csv_whole(field, table->type == ELEMENT_UINT64,
                                      (int64_t *)values + column, (uint64_t *)values + column);
        if (!number)
            return error_set(EXIT_CORRUPT_INPUT, "malformed CSV: %s:%zu: column %s: not %s: "
                             "'%.80s'", csv_path(table->csv), line, table->names[column],
                             table->type == ELEMENT_FLOAT64 ? "a number" : "a whole number",
                             field);
    }
    return EXIT_OK;
}

static int csv_probe(const struct input_context *context, const struct pack_input *input,
                     struct input_facts *facts)
{
    struct table table = {0};
    int result = table_open(&table, input, context->source);
    uint64_t row[PACK_MAX_COLUMNS];
    bool found = true;
    while (result == EXIT_OK && (result = row_read(&table, row, &found)) == EXIT_OK && found)
        facts->examples++;
    facts->type = table.type;
    facts->example_rank = 1;
    facts->example_shape[0] = table.column_count;
    table_close(&table);
    char *name = result == EXIT_OK ? input_relative_name(context->spec, input->path) : NULL;
    if (result == EXIT_OK)
        result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : input_facts_add_file(facts, input->path, name);
    free(name);
    return result;
}

static int csv_reader_open(const struct input_context *context, const struct pack_input *input,
                           const struct input_facts *facts, struct input_reader **reader)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = table_open(&(*reader)->table, input, context->source);
    if (result == EXIT_OK && (*reader)->table.column_count != facts->example_shape[0])
        result = error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s", input->path);
    size_t row_bytes = (*reader)->table.column_count * sizeof(uint64_t);
    (*reader)->examples_per_block = row_bytes == 0 ? 1 : INPUT_BLOCK_BYTES / row_bytes;
    (*reader)->buffer = malloc(INPUT_BLOCK_BYTES);
    if (result == EXIT_OK && (*reader)->buffer == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    return result;
}

static int csv_reader_next(struct input_reader *reader, struct example_block *block)
{
    size_t row_values = reader->table.column_count;
    uint64_t count = 0;
    bool found = true;
    int result = EXIT_OK;
    while (result == EXIT_OK && found && count < reader->examples_per_block) {
        result = row_read(&reader->table, (uint64_t *)reader->buffer + count * row_values, &found);
        count += found;
    }
    *block = (struct example_block){.data = reader->buffer, .count = count};
    return result;
}

static void csv_reader_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    table_close(&reader->table);
    free(reader->buffer);
    free(reader);
}

const struct input_kind_reader csv_input_reader = {csv_probe, csv_reader_open, csv_reader_next,
                                                   csv_reader_close, NULL};
