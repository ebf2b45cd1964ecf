/* A safe reader for the subset of Python pickles that hold plain data and uint8 numpy arrays. */
#ifndef FUEL_PICKLE_READ_H
#define FUEL_PICKLE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PICKLE_MAX_RANK 8

enum pickle_type {
    PICKLE_NONE,
    PICKLE_BOOL,
    PICKLE_INT,
    PICKLE_TEXT,  /* Python 3 str / Python 2 unicode, UTF-8 */
    PICKLE_BYTES, /* Python 3 bytes or bytearray / Python 2 str */
    PICKLE_LIST,
    PICKLE_TUPLE,
    PICKLE_DICT,
    PICKLE_ARRAY, /* a numpy ndarray of dtype uint8 */
    /* Only while parsing: the allowed callables, a uint8 dtype, a mark, an unset memo slot. */
    PICKLE_GLOBAL,
    PICKLE_DTYPE,
    PICKLE_MARK,
    PICKLE_UNSET,
};

struct pickle_string {
    const unsigned char *bytes; /* inside the parsed data: not a C string */
    size_t length;
    bool text; /* still the UTF-8 of a text, not yet the latin-1 bytes _codecs.encode made */
    bool as_read; /* the parsed data's own bytes, unchanged (a counted string, not unescaped) */
};

struct pickle_array {
    int rank;
    uint64_t shape[PICKLE_MAX_RANK];
    bool fortran_order;
    bool complete; /* numpy's __setstate__ (BUILD) has given it shape and data */
    const unsigned char *data; /* inside the parsed data, one byte per element */
    uint64_t size;
    bool data_as_read; /* DATA are the parsed data's bytes as read, not rewritten in place */
};

struct pickle_items;

struct pickle_value {
    enum pickle_type type;
    union {
        int64_t integer;              /* PICKLE_BOOL (0 or 1), PICKLE_INT */
        struct pickle_string *string; /* PICKLE_TEXT, PICKLE_BYTES */
        struct pickle_items *items;   /* PICKLE_LIST, PICKLE_TUPLE, PICKLE_DICT */
        struct pickle_array *array;   /* PICKLE_ARRAY */
        int global;                   /* PICKLE_GLOBAL */
    };
};

/* Values of a list or tuple; a dict's keys and values alternate. */
struct pickle_items {
    struct pickle_value *values;
    size_t count;
    size_t capacity;
    struct pickle_items *next; /* every container of one pickle, for freeing */
};

struct pickle;

/* Parses the pickle in DATA (SIZE bytes) into *ROOT. DATA may be rewritten in place and must
   outlive the pickle: large strings and arrays point into it. NAME (e.g. "archive: member")
   prefixes errors. Every construct that is not plain data or the numpy uint8 ndarray
   reconstruction is refused with EXIT_CORRUPT_INPUT "unsupported pickle construct: opcode X at
   offset N"; nothing read is ever called. Memory stays within a small multiple of SIZE. */
int pickle_parse(struct pickle **pickle, unsigned char *data, size_t size, const char *name,
                 struct pickle_value *root);

/* The value under KEY (compared with text and byte-string keys alike), or NULL. */
const struct pickle_value *pickle_dict_find(const struct pickle_value *dict, const char *key);

void pickle_free(struct pickle *pickle);

#endif
