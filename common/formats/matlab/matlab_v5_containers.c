/* Struct and cell arrays of MATLAB level-5 MAT-files, walked element by element (each element an
   array of its own, nested in its container's bytes), and character arrays read as UTF-8 text.
   Nothing is held but the field names of the containers entered (bounded by MATLAB_MAX_FIELDS
   and MATLAB_MAX_FIELD_NAME) and MATLAB_MAX_DEPTH frames, whatever the sizes a file declares. */
#include "matlab_v5_read_state.h"

#include "common/base/error.h"
#include "matlab_v5_format.h"

#include <stdlib.h>
#include <string.h>

enum { MI_UTF16 = 17 };

void matlab_frames_clear(struct matlab_file *file)
{
    for (int depth = 0; depth < file->depth; depth++) {
        free(file->frames[depth].field_names);
        file->frames[depth].field_names = NULL;
    }
    file->depth = 0;
}

/* The field name length (an miINT32 of 4 bytes) and the names (miINT8, NUL-padded). */
static int read_field_names(struct matlab_file *file, struct matlab_frame *frame)
{
    unsigned char bytes[4];
    size_t size;
    int status = matlab_read_subelement(file, MI_INT32, "the field name length", bytes,
                                        sizeof bytes, &size);
    if (status != EXIT_OK)
        return status;
    uint32_t length = size == 4 ? matlab_load_word(file, bytes) : 0;
    if (length < 1 || length > MATLAB_MAX_FIELD_NAME)
        return matlab_corrupt(file, "struct field names of %u bytes, not 1..%d", (unsigned)length,
                              MATLAB_MAX_FIELD_NAME);
    struct matlab_tag tag;
    if ((status = matlab_read_tag(file, &tag)) != EXIT_OK)
        return status;
    if (tag.type != MI_INT8 || tag.size % length != 0 || tag.size / length > MATLAB_MAX_FIELDS)
        return matlab_corrupt(file, "struct field names: %llu bytes of type %u for names of %u "
                              "bytes (at most %d fields)", (unsigned long long)tag.size,
                              (unsigned)tag.type, (unsigned)length, MATLAB_MAX_FIELDS);
    frame->field_count = (size_t)(tag.size / length);
    frame->name_length = length;
    frame->field_names = malloc(tag.size > 0 ? (size_t)tag.size : 1);
    if (frame->field_names == NULL)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: out of memory", file->path);
    status = matlab_matrix_read(file, frame->field_names, (size_t)tag.size);
    if (status == EXIT_OK)
        status = matlab_matrix_skip(file, tag.padding);
    for (size_t field = 0; status == EXIT_OK && field < frame->field_count; field++)
        if (frame->field_names[field * length + length - 1] != '\0')
            status = matlab_corrupt(file, "struct field name %zu is not NUL-terminated", field + 1);
    return status;
}

int matlab_container_enter(struct matlab_file *file, struct matlab_variable *variable)
{
    file->leaf = *variable;
    struct matlab_frame *frame = &file->frames[file->depth - 1];
    if (variable->class_id == MATLAB_CHAR) {
        file->text_pending = true;
        return EXIT_OK;
    }
    if (variable->class_id != MATLAB_STRUCT && variable->class_id != MATLAB_CELL)
        return EXIT_OK;
    frame->container = true;
    frame->children_left = variable->count;
    if (variable->class_id == MATLAB_CELL)
        return EXIT_OK;
    int status = read_field_names(file, frame);
    if (status == EXIT_OK &&
        __builtin_mul_overflow(variable->count, (uint64_t)frame->field_count,
                               &frame->children_left))
        status = matlab_corrupt(file, "struct %s declares too many elements", variable->name);
    return status;
}

/* Leaves the innermost frame: skips what is left of its array, back into its parent's bytes. */
static int frame_pop(struct matlab_file *file)
{
    struct matlab_frame *frame = &file->frames[file->depth - 1];
    file->readable = false;
    file->text_pending = false;
    int status = matlab_matrix_skip(file, file->matrix_left);
    file->small_left = 0;
    file->matrix_left = frame->parent_left;
    free(frame->field_names);
    *frame = (struct matlab_frame){0};
    file->depth--;
    return status;
}

/* Leaves the innermost frame when it is a nested array that is not a container. */
static int leaf_close(struct matlab_file *file)
{
    if (file->depth > 1 && !file->frames[file->depth - 1].container)
        return frame_pop(file);
    return EXIT_OK;
}

static int no_container(const struct matlab_file *file)
{
    return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: no struct or cell array to read",
                     file->path);
}

/* An element of no bytes: MATLAB's `[]`, a 0x0 double array. */
static void empty_child(struct matlab_file *file, struct matlab_variable *child)
{
    *child = (struct matlab_variable){.class_id = MATLAB_DOUBLE, .rank = 2};
    file->leaf = *child;
    file->readable = true;
    file->class_id = MATLAB_DOUBLE;
    file->stored_type = MI_DOUBLE;
    file->elements_left = 0;
    file->padding = 0;
}

int matlab_child(struct matlab_file *file, struct matlab_variable *child, bool *found)
{
    *found = false;
    int status = leaf_close(file);
    if (status != EXIT_OK)
        return status;
    if (file->depth < 1 || !file->frames[file->depth - 1].container)
        return no_container(file);
    struct matlab_frame *parent = &file->frames[file->depth - 1];
    if (parent->children_left == 0)
        return EXIT_OK;
    if (file->depth == MATLAB_MAX_DEPTH)
        return matlab_corrupt(file, "arrays nested deeper than %d", MATLAB_MAX_DEPTH);
    struct matlab_tag tag;
    if ((status = matlab_read_tag(file, &tag)) != EXIT_OK)
        return status;
    if (tag.type != MI_MATRIX || tag.padding != 0)
        return matlab_corrupt(file, "an element of a struct or cell array has data type %u and "
                              "%llu bytes, not an array", (unsigned)tag.type,
                              (unsigned long long)tag.size);
    parent->children_left--;
    file->frames[file->depth] = (struct matlab_frame){.parent_left = file->matrix_left - tag.size};
    file->matrix_left = tag.size;
    file->depth++;
    file->readable = false;
    file->text_pending = false;
    *found = true;
    if (tag.size == 0) {
        empty_child(file, child);
        return EXIT_OK;
    }
    return matlab_read_matrix(file, child);
}

int matlab_leave(struct matlab_file *file)
{
    int status = leaf_close(file);
    if (status != EXIT_OK)
        return status;
    if (file->depth < 1 || !file->frames[file->depth - 1].container)
        return no_container(file);
    if (file->depth == 1) {
        file->frames[0].children_left = 0;
        return EXIT_OK;
    }
    return frame_pop(file);
}

static const struct matlab_frame *innermost_container(const struct matlab_file *file)
{
    for (int depth = file->depth; depth > 0; depth--)
        if (file->frames[depth - 1].container)
            return &file->frames[depth - 1];
    return NULL;
}

size_t matlab_field_count(const struct matlab_file *file)
{
    const struct matlab_frame *frame = innermost_container(file);
    return frame != NULL ? frame->field_count : 0;
}

const char *matlab_field_name(const struct matlab_file *file, size_t field)
{
    const struct matlab_frame *frame = innermost_container(file);
    if (frame == NULL || field >= frame->field_count)
        return NULL;
    return frame->field_names + field * frame->name_length;
}

/* Appends the code point UNIT (below 0x10000) to TEXT as UTF-8; false when it does not fit. */
static bool put_unit(char *text, size_t capacity, size_t *length, uint32_t unit)
{
    unsigned char bytes[3];
    size_t count = 1;
    if (unit < 0x80) {
        bytes[0] = (unsigned char)unit;
    } else if (unit < 0x800) {
        bytes[0] = (unsigned char)(0xC0 | unit >> 6);
        bytes[1] = (unsigned char)(0x80 | (unit & 0x3F));
        count = 2;
    } else {
        bytes[0] = (unsigned char)(0xE0 | unit >> 12);
        bytes[1] = (unsigned char)(0x80 | ((unit >> 6) & 0x3F));
        bytes[2] = (unsigned char)(0x80 | (unit & 0x3F));
        count = 3;
    }
    if (capacity - 1 - *length < count)
        return false;
    memcpy(text + *length, bytes, count);
    *length += count;
    return true;
}

static int text_too_long(struct matlab_file *file, size_t capacity)
{
    return matlab_corrupt(file, "a character array holds more than %zu bytes", capacity - 1);
}

/* MATLAB's 16-bit code units, read through the staging buffer and encoded to UTF-8. */
static int read_units(struct matlab_file *file, const struct matlab_tag *tag, char *text,
                      size_t capacity, size_t *length)
{
    uint64_t units = tag->size / 2;
    while (units > 0) {
        size_t part = units < sizeof file->staging / 2 ? (size_t)units : sizeof file->staging / 2;
        int status = matlab_matrix_read(file, file->staging, part * 2);
        if (status != EXIT_OK)
            return status;
        for (size_t unit = 0; unit < part; unit++) {
            uint16_t value;
            memcpy(&value, file->staging + 2 * unit, 2);
            if (file->swap)
                value = (uint16_t)(value >> 8 | value << 8);
            if (value == 0)
                return matlab_corrupt(file, "a character array holds a NUL character");
            if (!put_unit(text, capacity, length, value))
                return text_too_long(file, capacity);
        }
        units -= part;
    }
    return EXIT_OK;
}

static int read_text_data(struct matlab_file *file, const struct matlab_tag *tag, char *text,
                          size_t capacity, size_t *length)
{
    bool bytes = tag->type == MI_UTF8 || tag->type == MI_UINT8 || tag->type == MI_INT8;
    bool units = tag->type == MI_UINT16 || tag->type == MI_UTF16;
    uint64_t count = file->leaf.count;
    if ((!bytes && !units) || (units && tag->size != 2 * count) ||
        (bytes && tag->type != MI_UTF8 && tag->size != count))
        return matlab_corrupt(file, "a character array of %llu characters holds %llu bytes of "
                              "type %u", (unsigned long long)count,
                              (unsigned long long)tag->size, (unsigned)tag->type);
    if (units)
        return read_units(file, tag, text, capacity, length);
    if (tag->size > capacity - 1)
        return text_too_long(file, capacity);
    int status = matlab_matrix_read(file, text, (size_t)tag->size);
    *length = (size_t)tag->size;
    if (status == EXIT_OK && memchr(text, '\0', *length) != NULL)
        return matlab_corrupt(file, "a character array holds a NUL character");
    return status;
}

int matlab_read_text(struct matlab_file *file, char *text, size_t capacity, size_t *length)
{
    *length = 0;
    if (capacity > 0)
        text[0] = '\0';
    if (!file->text_pending || capacity == 0)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: no character array to read",
                         file->path);
    file->text_pending = false;
    const struct matlab_variable *leaf = &file->leaf;
    if (leaf->count > 0 && (leaf->rank != 2 || leaf->dimensions[0] != 1))
        return matlab_corrupt(file, "character array %s has %llu rows, not one", leaf->name,
                              (unsigned long long)leaf->dimensions[0]);
    struct matlab_tag tag;
    int status = matlab_read_tag(file, &tag);
    if (status == EXIT_OK)
        status = read_text_data(file, &tag, text, capacity, length);
    if (status == EXIT_OK)
        status = matlab_matrix_skip(file, tag.padding);
    text[status == EXIT_OK ? *length : 0] = '\0';
    if (status != EXIT_OK)
        *length = 0;
    return status;
}
