/* Internals shared by the files of the pickle reader: the parse (pickle.c), its memory
   (pickle_memory.c), stack (pickle_stack.c), opcodes (pickle_opcodes.c), protocol 0 text
   (pickle_text.c) and allowed objects (pickle_objects.c). */
#ifndef FUEL_PICKLE_PARSER_H
#define FUEL_PICKLE_PARSER_H

#include "pickle_read.h"

#include <stddef.h>

enum { PICKLE_MAXIMUM_DEPTH = 64 }; /* marks: containers nested in the making */

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
    size_t marks[PICKLE_MAXIMUM_DEPTH];
    size_t mark_count;
    struct pickle_value *memo;
    size_t memo_capacity;
    size_t memo_count; /* slots set, which MEMOIZE numbers next */
};

/* EXIT_CORRUPT_INPUT "unsupported pickle construct: opcode X at offset N: WHY". */
int pickle_refuse(struct pickle_parser *parser, const char *why);

/* Zeroed memory owned by the pickle, within the budget; NULL after pickle_refuse. */
void *pickle_allocate(struct pickle_parser *parser, size_t size);

/* Grows *ARRAY (of ELEMENT-byte elements, the new ones zeroed) to hold at least NEEDED, within the
   budget. */
int pickle_grow(struct pickle_parser *parser, void **array, size_t *capacity, size_t needed,
                size_t element);

/* The stack (pickle_stack.c). Its floor is the last mark: nothing below it pops. */
size_t pickle_stack_floor(const struct pickle_parser *parser);
int pickle_push(struct pickle_parser *parser, struct pickle_value value);
int pickle_push_integer(struct pickle_parser *parser, enum pickle_type type, int64_t integer);

/* Pushes a string of LENGTH BYTES (kept where they are: in the data or the pickle's memory). */
int pickle_push_string(struct pickle_parser *parser, enum pickle_type type, unsigned char *bytes,
                       size_t length);

/* A new empty list, tuple or dict in *CONTAINER; pickle_push_container pushes one. */
int pickle_new_container(struct pickle_parser *parser, enum pickle_type type,
                         struct pickle_value *container);
int pickle_push_container(struct pickle_parser *parser, enum pickle_type type);
int pickle_append_items(struct pickle_parser *parser, struct pickle_items *items,
                        const struct pickle_value *values, size_t count);
int pickle_pop(struct pickle_parser *parser, struct pickle_value *value);

/* Points *VALUE at the top of the stack, which stays. */
int pickle_top(struct pickle_parser *parser, struct pickle_value **value);

/* Pops everything above the last mark: *VALUES (still in the stack array) and *COUNT. */
int pickle_pop_to_mark(struct pickle_parser *parser, struct pickle_value **values, size_t *count);

/* The cursor over the data: the next COUNT bytes, a little-endian unsigned integer of WIDTH
   bytes, or the text up to the next newline (passed over). */
int pickle_take(struct pickle_parser *parser, uint64_t count, unsigned char **bytes);
int pickle_take_unsigned(struct pickle_parser *parser, int width, uint64_t *value);
int pickle_take_line(struct pickle_parser *parser, unsigned char **line, size_t *length);

/* Runs the opcode at parser->opcode (pickle_opcodes.c); STOP is the caller's. */
int pickle_run_opcode(struct pickle_parser *parser);

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
