/* Reads .npy headers (formats 1.0 to 3.0): the dictionary numpy writes, parsed as the Python
   literal it is, bounded, for numeric and bool dtypes only. */
#include "npy.h"

#include "common/base/error.h"

#include <stdio.h>
#include <string.h>

struct cursor {
    const unsigned char *at;
    const unsigned char *end;
    const char *name;
};

/* The dictionary's values as read; found[] says which keys appeared. */
struct dictionary {
    char descr[32];
    bool fortran_order;
    int rank;
    uint64_t shape[NPY_MAX_RANK];
    bool found[3];
};

static int corrupt(const char *name, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy header: %s: %s", name, why);
}

int npy_header_length(const unsigned char *start, size_t size, const char *name, size_t *length)
{
    if (size < 10 || memcmp(start, "\x93NUMPY", 6) != 0)
        return corrupt(name, "not a .npy file (no \\x93NUMPY magic)");
    unsigned major = start[6], minor = start[7];
    if (major < 1 || major > 3 || minor != 0) {
        char why[64];
        snprintf(why, sizeof why, "format version %u.%u, not 1.0, 2.0 or 3.0", major, minor);
        return corrupt(name, why);
    }
    if (major == 1) {
        *length = 10 + ((size_t)start[8] | (size_t)start[9] << 8);
        return EXIT_OK;
    }
    if (size < 12)
        return corrupt(name, "truncated header");
    uint64_t declared = (uint64_t)start[8] | (uint64_t)start[9] << 8 | (uint64_t)start[10] << 16 |
                        (uint64_t)start[11] << 24;
    if (declared + 12 > NPY_READ_HEADER_MAX)
        return error_set(EXIT_CORRUPT_INPUT,
                         "cannot read .npy header: %s: %llu bytes, more than %u",
                         name, (unsigned long long)declared + 12, NPY_READ_HEADER_MAX);
    *length = (size_t)declared + 12;
    return EXIT_OK;
}

static void skip_spaces(struct cursor *cursor)
{
    while (cursor->at < cursor->end &&
           (*cursor->at == ' ' || *cursor->at == '\t' || *cursor->at == '\n' || *cursor->at == '\r'))
        cursor->at++;
}

/* Consumes CHARACTER after spaces; false when something else comes. */
static bool accept(struct cursor *cursor, char character)
{
    skip_spaces(cursor);
    if (cursor->at < cursor->end && *cursor->at == (unsigned char)character) {
        cursor->at++;
        return true;
    }
    return false;
}

/* A quoted string without escapes, into TEXT (SIZE bytes); false when malformed or too long. */
static bool read_string(struct cursor *cursor, char *text, size_t size)
{
    skip_spaces(cursor);
    if (cursor->at >= cursor->end || (*cursor->at != '\'' && *cursor->at != '"'))
        return false;
    unsigned char quote = *cursor->at++;
    size_t length = 0;
    while (cursor->at < cursor->end && *cursor->at != quote) {
        if (*cursor->at == '\\' || length + 1 >= size)
            return false;
        text[length++] = (char)*cursor->at++;
    }
    text[length] = '\0';
    if (cursor->at >= cursor->end)
        return false;
    cursor->at++;
    return true;
}

static bool read_word(struct cursor *cursor, const char *word)
{
    skip_spaces(cursor);
    size_t length = strlen(word);
    if ((size_t)(cursor->end - cursor->at) < length || memcmp(cursor->at, word, length) != 0)
        return false;
    cursor->at += length;
    return true;
}

/* A decimal dimension (Python 2's numpy wrote 10L), at most 2^63 - 1. */
static bool read_dimension(struct cursor *cursor, uint64_t *value)
{
    skip_spaces(cursor);
    const unsigned char *start = cursor->at;
    *value = 0;
    while (cursor->at < cursor->end && *cursor->at >= '0' && *cursor->at <= '9') {
        if (*value > (UINT64_C(1) << 62) / 5)
            return false;
        *value = *value * 10 + (uint64_t)(*cursor->at++ - '0');
    }
    if (cursor->at < cursor->end && *cursor->at == 'L')
        cursor->at++;
    return cursor->at > start && *value <= (uint64_t)INT64_MAX;
}

/* A tuple of dimensions: (), (5,), (5, 3) or (5, 3,). */
static int read_shape(struct cursor *cursor, struct dictionary *read)
{
    if (!accept(cursor, '('))
        return corrupt(cursor->name, "'shape' is not a tuple");
    read->rank = 0;
    if (accept(cursor, ')'))
        return EXIT_OK;
    for (;;) {
        if (read->rank == NPY_MAX_RANK)
            return corrupt(cursor->name, "more than 32 dimensions");
        if (!read_dimension(cursor, &read->shape[read->rank]))
            return corrupt(cursor->name, "'shape' holds something other than a dimension");
        read->rank++;
        bool comma = accept(cursor, ',');
        if (accept(cursor, ')'))
            return read->rank == 1 && !comma ? corrupt(cursor->name, "'shape' is not a tuple")
                                             : EXIT_OK;
        if (!comma)
            return corrupt(cursor->name, "'shape' is not a tuple");
    }
}

static int read_value(struct cursor *cursor, const char *key, struct dictionary *read)
{
    if (strcmp(key, "descr") == 0) {
        read->found[0] = true;
        skip_spaces(cursor);
        if (cursor->at < cursor->end && *cursor->at == '[')
            return corrupt(cursor->name, "a structured dtype (fields), not a number type");
        return read_string(cursor, read->descr, sizeof read->descr)
                   ? EXIT_OK
                   : corrupt(cursor->name, "'descr' is not a dtype string");
    }
    if (strcmp(key, "fortran_order") == 0) {
        read->found[1] = true;
        read->fortran_order = read_word(cursor, "True");
        return read->fortran_order || read_word(cursor, "False")
                   ? EXIT_OK
                   : corrupt(cursor->name, "'fortran_order' is not True or False");
    }
    if (strcmp(key, "shape") == 0) {
        read->found[2] = true;
        return read_shape(cursor, read);
    }
    char why[96];
    snprintf(why, sizeof why, "unexpected key '%s'", key);
    return corrupt(cursor->name, why);
}

static int read_dictionary(struct cursor *cursor, struct dictionary *read)
{
    if (!accept(cursor, '{'))
        return corrupt(cursor->name, "the header is not a dictionary");
    while (!accept(cursor, '}')) {
        char key[32];
        if (!read_string(cursor, key, sizeof key) || !accept(cursor, ':'))
            return corrupt(cursor->name, "the header is not a dictionary");
        int result = read_value(cursor, key, read);
        if (result != EXIT_OK)
            return result;
        if (!accept(cursor, ',')) {
            if (!accept(cursor, '}'))
                return corrupt(cursor->name, "the header is not a dictionary");
            break;
        }
    }
    skip_spaces(cursor);
    if (cursor->at != cursor->end)
        return corrupt(cursor->name, "something follows the dictionary");
    if (!read->found[0] || !read->found[1] || !read->found[2])
        return corrupt(cursor->name, "'descr', 'fortran_order' or 'shape' missing");
    return EXIT_OK;
}

/* numpy's type string: a byte order, a kind, a size ('<f4', '|u1', '>i8', '|b1'). */
static int read_descr(const char *name, const char *descr, struct npy_array *array)
{
    char why[160];
    char order = descr[0], kind = descr[0] != '\0' ? descr[1] : '\0';
    unsigned size = 0;
    int consumed = 0;
    if (kind == 'O' || strchr(descr, 'O') != NULL) {
        snprintf(why, sizeof why, "dtype '%s' holds Python objects (a pickle): refused", descr);
        return corrupt(name, why);
    }
    bool known = order != '\0' && kind != '\0' && strchr("<>|=", order) != NULL &&
                 strchr("biuf", kind) != NULL &&
                 sscanf(descr + 2, "%u%n", &size, &consumed) == 1 &&
                 descr[2 + consumed] == '\0' && descr[2] >= '1' && descr[2] <= '9';
    bool sized = kind == 'b' ? size == 1
                 : kind == 'f' ? size == 4 || size == 8
                               : size == 1 || size == 2 || size == 4 || size == 8;
    if (!known || !sized || (order == '|' && size != 1)) {
        snprintf(why, sizeof why,
                 "dtype '%s' is not bool, an integer, float32 or float64", descr);
        return corrupt(name, why);
    }
    array->kind = kind;
    array->item_size = size;
    array->big_endian = order == '>';
    return EXIT_OK;
}

/* The element count and bytes of the shape; false when they overflow 64 bits. */
static bool shape_bytes(struct npy_array *array)
{
    array->elements = 1;
    for (int axis = 0; axis < array->rank; axis++) {
        if (array->shape[axis] != 0 && array->elements > UINT64_MAX / array->shape[axis])
            return false;
        array->elements *= array->shape[axis];
    }
    if (array->elements > UINT64_MAX / array->item_size)
        return false;
    array->data_bytes = array->elements * array->item_size;
    return true;
}

int npy_header_parse(const unsigned char *header, size_t length, const char *name,
                     struct npy_array *array)
{
    size_t expected = 0;
    int result = npy_header_length(header, length, name, &expected);
    if (result != EXIT_OK)
        return result;
    if (expected != length)
        return corrupt(name, "truncated header");
    size_t preamble = header[6] == 1 ? 10 : 12;
    /* numpy's literal_eval refuses a NUL anywhere; the string reader here would stop at it. */
    if (memchr(header + preamble, '\0', length - preamble) != NULL)
        return corrupt(name, "a NUL byte in the header");
    struct cursor cursor = {header + preamble, header + length, name};
    struct dictionary read = {0};
    *array = (struct npy_array){0};
    result = read_dictionary(&cursor, &read);
    if (result == EXIT_OK)
        result = read_descr(name, read.descr, array);
    if (result != EXIT_OK)
        return result;
    array->fortran_order = read.fortran_order;
    array->rank = read.rank;
    memcpy(array->shape, read.shape, sizeof array->shape);
    array->header_length = length;
    if (!shape_bytes(array))
        return corrupt(name, "the shape's size overflows 64 bits");
    return EXIT_OK;
}
