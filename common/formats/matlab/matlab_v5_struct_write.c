/* Struct and cell arrays (and the cell and char arrays inside them) of MAT-file level 5, built
   in memory as one miMATRIX element, then written compressed: nested sizes are known only once
   the nested arrays are laid out. For small variables (a devkit's meta.mat), not bulk data. */
#include "matlab_v5_write.h"

#include "common/base/error.h"
#include "matlab_v5_read.h"
#include "matlab_v5_format.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a miMATRIX element being built. */
struct built {
    unsigned char *bytes;
    size_t size;
    size_t capacity;
    bool failed;
};

static void append(struct built *built, const void *data, size_t size)
{
    if (built->failed || size == 0)
        return;
    if (built->capacity - built->size < size) {
        size_t capacity = built->capacity == 0 ? 4096 : built->capacity;
        while (capacity - built->size < size)
            capacity *= 2;
        unsigned char *grown = realloc(built->bytes, capacity);
        if (grown == NULL) {
            built->failed = true;
            return;
        }
        built->bytes = grown;
        built->capacity = capacity;
    }
    memcpy(built->bytes + built->size, data, size);
    built->size += size;
}

static void append32(struct built *built, uint32_t value)
{
    unsigned char bytes[4];
    for (int index = 0; index < 4; index++)
        bytes[index] = (unsigned char)(value >> (8 * index));
    append(built, bytes, sizeof bytes);
}

/* A subelement: tag, data, zero padding to 8 bytes. */
static void append_element(struct built *built, uint32_t type, const void *data, size_t size)
{
    static const unsigned char padding[8] = {0};
    append32(built, type);
    append32(built, (uint32_t)size);
    append(built, data, size);
    append(built, padding, (8 - size % 8) % 8);
}

/* Starts a miMATRIX at *START (its byte count patched by matrix_end): flags, dimensions, name. */
static void matrix_begin(struct built *built, size_t *start, uint32_t class_id, uint32_t rows,
                         uint32_t columns, const char *name)
{
    *start = built->size;
    append32(built, MI_MATRIX);
    append32(built, 0);
    unsigned char flags[8] = {(unsigned char)class_id};
    append_element(built, MI_UINT32, flags, sizeof flags);
    unsigned char dimensions[8];
    for (int index = 0; index < 4; index++) {
        dimensions[index] = (unsigned char)(rows >> (8 * index));
        dimensions[4 + index] = (unsigned char)(columns >> (8 * index));
    }
    append_element(built, MI_INT32, dimensions, sizeof dimensions);
    append_element(built, MI_INT8, name, strlen(name));
}

static void matrix_end(struct built *built, size_t start)
{
    if (built->failed)
        return;
    uint32_t size = (uint32_t)(built->size - start - 8);
    for (int index = 0; index < 4; index++)
        built->bytes[start + 4 + index] = (unsigned char)(size >> (8 * index));
}

/* A 1 x COUNT row of uint8 or uint16 (WIDTH bytes each, little-endian) from VALUE's doubles. */
static void append_integers(struct built *built, const struct matlab_value *value, size_t width)
{
    size_t start;
    uint32_t columns = (uint32_t)value->count;
    matrix_begin(built, &start, width == 1 ? MATLAB_UINT8 : MATLAB_UINT16, columns > 0 ? 1 : 0,
                 columns, "");
    unsigned char *bytes = calloc(value->count > 0 ? value->count : 1, width);
    if (bytes == NULL)
        built->failed = true;
    for (size_t index = 0; bytes != NULL && index < value->count; index++) {
        unsigned number = (unsigned)value->numbers[index];
        for (size_t byte = 0; byte < width; byte++)
            bytes[index * width + byte] = (unsigned char)(number >> (8 * byte));
    }
    append_element(built, width == 1 ? MI_UINT8 : MI_UINT16, bytes, value->count * width);
    free(bytes);
    matrix_end(built, start);
}

static void append_value(struct built *built, const struct matlab_value *value)
{
    size_t start;
    if (value->kind == MATLAB_VALUE_UINT8S || value->kind == MATLAB_VALUE_UINT16S) {
        append_integers(built, value, value->kind == MATLAB_VALUE_UINT8S ? 1 : 2);
        return;
    }
    if (value->kind == MATLAB_VALUE_DOUBLES) {
        uint32_t columns = (uint32_t)value->count;
        matrix_begin(built, &start, MATLAB_DOUBLE, columns > 0 ? 1 : 0, columns, "");
        append_element(built, MI_DOUBLE, value->numbers, value->count * sizeof(double));
    } else if (value->kind == MATLAB_VALUE_TEXT) {
        size_t length = strlen(value->text);
        matrix_begin(built, &start, MATLAB_CHAR, length > 0 ? 1 : 0, (uint32_t)length, "");
        unsigned char *units = calloc(length > 0 ? length : 1, 2);
        if (units == NULL)
            built->failed = true;
        for (size_t index = 0; units != NULL && index < length; index++)
            units[2 * index] = (unsigned char)value->text[index];
        append_element(built, MI_UINT16, units, 2 * length);
        free(units);
    } else {
        matrix_begin(built, &start, MATLAB_CELL, 1, (uint32_t)value->count, "");
        for (size_t index = 0; index < value->count; index++)
            append_value(built, &value->values[index]);
    }
    matrix_end(built, start);
}

/* Writes BUILT, one whole miMATRIX, and frees it. */
static int built_write(struct matlab_writer *writer, struct built *built)
{
    int result = built->failed ? error_set(EXIT_OTHER, "cannot write: %s: out of memory",
                                           writer->path)
                               : matlab_writer_matrix(writer, built->bytes, built->size);
    free(built->bytes);
    return result;
}

int matlab_writer_struct(struct matlab_writer *writer, const char *name, uint32_t count,
                         const char *const *fields, size_t field_count,
                         const struct matlab_value *values)
{
    struct built built = {0};
    size_t start;
    matrix_begin(&built, &start, MATLAB_STRUCT, count, 1, name);
    uint32_t length = 1;
    for (size_t field = 0; field < field_count; field++)
        if (strlen(fields[field]) + 1 > length)
            length = (uint32_t)strlen(fields[field]) + 1;
    /* The field name length as MATLAB writes it: a small miINT32 element (type, then size 4, in
       the tag's first word), its value in the tag's second word. */
    unsigned char small[8] = {MI_INT32, 0, 4, 0};
    for (int index = 0; index < 4; index++)
        small[4 + index] = (unsigned char)(length >> (8 * index));
    append(&built, small, sizeof small);
    char *names = calloc(field_count > 0 ? field_count : 1, length);
    if (names == NULL)
        built.failed = true;
    for (size_t field = 0; names != NULL && field < field_count; field++)
        memcpy(names + field * length, fields[field], strlen(fields[field]));
    append_element(&built, MI_INT8, names, field_count * length);
    free(names);
    for (size_t index = 0; index < (size_t)count * field_count; index++)
        append_value(&built, &values[index]);
    matrix_end(&built, start);
    return built_write(writer, &built);
}

int matlab_writer_cell(struct matlab_writer *writer, const char *name,
                       const struct matlab_value *values, size_t count)
{
    struct built built = {0};
    size_t start;
    matrix_begin(&built, &start, MATLAB_CELL, 1, (uint32_t)count, name);
    for (size_t index = 0; index < count; index++)
        append_value(&built, &values[index]);
    matrix_end(&built, start);
    return built_write(writer, &built);
}
