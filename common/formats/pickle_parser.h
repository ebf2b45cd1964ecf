/* Internals shared by the pickle opcode loop (pickle.c) and its allowed objects (pickle_objects.c). */
#ifndef FUEL_PICKLE_PARSER_H
#define FUEL_PICKLE_PARSER_H

#include "pickle.h"

#include <stddef.h>

struct arena_block;

struct pickle {
    struct arena_block *blocks;
    struct pickle_items *containers;
};

struct pickle_parser {
    unsigned char *data;
    size_t size;
    size_t position;
    const char *name;
    size_t opcode_offset; /* of the opcode being run, for messages */
    unsigned char opcode;
    size_t budget;        /* bytes that may still be allocated */
    struct pickle *pickle;
    struct pickle_value *stack;
    size_t stack_count;
    size_t stack_capacity;
    size_t marks[64];
    size_t mark_count;
    struct pickle_value *memo;
    size_t memo_capacity;
    size_t memo_count; /* slots set, which MEMOIZE numbers next */
};

/* EXIT_CORRUPT_INPUT "unsupported pickle construct: opcode X at offset N: WHY". */
int pickle_refuse(struct pickle_parser *parser, const char *why);

/* Zeroed memory owned by the pickle, within the budget; NULL after pickle_refuse. */
void *pickle_allocate(struct pickle_parser *parser, size_t size);

/* Whether VALUE is a text or byte string equal to TEXT. */
bool pickle_string_equals(const struct pickle_value *value, const char *text);

/* Protocol 0 text (pickle_text.c). A decimal integer: NULL, or why it is refused. */
const char *pickle_text_decimal(const unsigned char *text, size_t length, int64_t *value);

/* Unescapes the quoted Python 2 repr LINE in place into its first *WRITTEN bytes. */
bool pickle_text_unquote(unsigned char *line, size_t length, size_t *written);

/* Decodes raw-unicode-escape LINE into OUT (room for 2 * LENGTH bytes) as UTF-8. */
bool pickle_text_unescape_unicode(const unsigned char *line, size_t length, unsigned char *out,
                                  size_t *written);

/* The allowed callables: numpy's ndarray reconstruction and dtype, and _codecs.encode. */
int pickle_find_global(struct pickle_parser *parser, const char *module, size_t module_length,
                       const char *name, size_t name_length, struct pickle_value *global);

/* REDUCE: applies CALLABLE (a PICKLE_GLOBAL) to the tuple ARGUMENTS. */
int pickle_reduce(struct pickle_parser *parser, const struct pickle_value *callable,
                  const struct pickle_value *arguments, struct pickle_value *result);

/* BUILD: sets the state of an ndarray or dtype made by REDUCE. */
int pickle_build(struct pickle_parser *parser, struct pickle_value *object,
                 const struct pickle_value *state);

#endif
