/* The pickle opcode loop: protocols 0 to 5, plain data only, every length checked before use. */
#include "pickle.h"

#include "common/base/error.h"
#include "pickle_parser.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAXIMUM_MEMO = 1 << 22,
    FIXED_BUDGET = 1 << 20,
    BUDGET_PER_BYTE = 16,
    MAXIMUM_DEPTH = 64,
    ARENA_BLOCK = 1 << 16,
};

struct arena_block {
    struct arena_block *next;
    size_t used;
    size_t size;
    unsigned char bytes[];
};

int pickle_refuse(struct pickle_parser *parser, const char *why)
{
    char opcode[16];
    if (isprint(parser->opcode))
        snprintf(opcode, sizeof opcode, "'%c' (0x%02x)", parser->opcode, parser->opcode);
    else
        snprintf(opcode, sizeof opcode, "0x%02x", parser->opcode);
    return error_set(EXIT_CORRUPT_INPUT,
                     "cannot read pickle: %s: unsupported pickle construct: opcode %s at offset %zu: %s",
                     parser->name, opcode, parser->opcode_offset, why);
}

static bool spend(struct pickle_parser *parser, size_t size)
{
    if (size > parser->budget) {
        pickle_refuse(parser, "more memory than its size justifies");
        return false;
    }
    parser->budget -= size;
    return true;
}

void *pickle_allocate(struct pickle_parser *parser, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct arena_block *block = parser->pickle->blocks;
    if (block == NULL || block->size - block->used < size) {
        size_t block_size = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        if (!spend(parser, block_size))
            return NULL;
        block = calloc(1, sizeof *block + block_size);
        if (block == NULL) {
            error_set(EXIT_OTHER, "cannot read pickle: %s: out of memory", parser->name);
            return NULL;
        }
        block->size = block_size;
        block->next = parser->pickle->blocks;
        parser->pickle->blocks = block;
    }
    void *pointer = block->bytes + block->used;
    block->used += size;
    return pointer;
}

/* Grows *ARRAY (of ELEMENT-byte elements) to hold at least NEEDED, within the budget. */
static int grow(struct pickle_parser *parser, void **array, size_t *capacity, size_t needed,
                size_t element)
{
    if (needed <= *capacity)
        return EXIT_OK;
    size_t wanted = *capacity < 16 ? 16 : *capacity * 2;
    if (wanted < needed)
        wanted = needed;
    if (!spend(parser, (wanted - *capacity) * element))
        return EXIT_CORRUPT_INPUT;
    void *grown = realloc(*array, wanted * element);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot read pickle: %s: out of memory", parser->name);
    memset((unsigned char *)grown + *capacity * element, 0, (wanted - *capacity) * element);
    *array = grown;
    *capacity = wanted;
    return EXIT_OK;
}

static int push(struct pickle_parser *parser, struct pickle_value value)
{
    int result = grow(parser, (void **)&parser->stack, &parser->stack_capacity,
                      parser->stack_count + 1, sizeof *parser->stack);
    if (result == EXIT_OK)
        parser->stack[parser->stack_count++] = value;
    return result;
}

static size_t floor_of_stack(const struct pickle_parser *parser)
{
    return parser->mark_count > 0 ? parser->marks[parser->mark_count - 1] : 0;
}

static int pop(struct pickle_parser *parser, struct pickle_value *value)
{
    if (parser->stack_count <= floor_of_stack(parser))
        return pickle_refuse(parser, "stack underflow");
    *value = parser->stack[--parser->stack_count];
    return EXIT_OK;
}

static int top(struct pickle_parser *parser, struct pickle_value **value)
{
    if (parser->stack_count <= floor_of_stack(parser))
        return pickle_refuse(parser, "stack underflow");
    *value = &parser->stack[parser->stack_count - 1];
    return EXIT_OK;
}

/* Points *BYTES at the next COUNT bytes of data and passes over them. */
static int take(struct pickle_parser *parser, uint64_t count, unsigned char **bytes)
{
    if (count > parser->size - parser->position)
        return pickle_refuse(parser, "length past the end of the data");
    *bytes = parser->data + parser->position;
    parser->position += (size_t)count;
    return EXIT_OK;
}

static int take_unsigned(struct pickle_parser *parser, int width, uint64_t *value)
{
    unsigned char *bytes = NULL;
    int result = take(parser, (uint64_t)width, &bytes);
    *value = 0;
    for (int index = width - 1; result == EXIT_OK && index >= 0; index--)
        *value = (*value << 8) | bytes[index];
    return result;
}

/* The text up to the next newline (protocol 0 arguments), newline passed over. */
static int take_line(struct pickle_parser *parser, unsigned char **line, size_t *length)
{
    unsigned char *start = parser->data + parser->position;
    unsigned char *end = memchr(start, '\n', parser->size - parser->position);
    if (end == NULL)
        return pickle_refuse(parser, "line past the end of the data");
    *line = start;
    *length = (size_t)(end - start);
    parser->position += *length + 1;
    return EXIT_OK;
}

static int push_integer(struct pickle_parser *parser, enum pickle_type type, int64_t integer)
{
    return push(parser, (struct pickle_value){.type = type, .integer = integer});
}

static int push_string(struct pickle_parser *parser, enum pickle_type type, unsigned char *bytes,
                       size_t length)
{
    struct pickle_string *string = pickle_allocate(parser, sizeof *string);
    if (string == NULL)
        return error_code();
    bool inside = bytes >= parser->data && bytes < parser->data + parser->size;
    *string = (struct pickle_string){bytes, length, type == PICKLE_TEXT, inside};
    return push(parser, (struct pickle_value){.type = type, .string = string});
}

static int new_container(struct pickle_parser *parser, enum pickle_type type,
                         struct pickle_value *container)
{
    struct pickle_items *items = pickle_allocate(parser, sizeof *items);
    if (items == NULL)
        return error_code();
    items->next = parser->pickle->containers;
    parser->pickle->containers = items;
    *container = (struct pickle_value){.type = type, .items = items};
    return EXIT_OK;
}

static int push_container(struct pickle_parser *parser, enum pickle_type type)
{
    struct pickle_value container;
    int result = new_container(parser, type, &container);
    return result == EXIT_OK ? push(parser, container) : result;
}

static int append_items(struct pickle_parser *parser, struct pickle_items *items,
                        const struct pickle_value *values, size_t count)
{
    if (count == 0)
        return EXIT_OK;
    int result = grow(parser, (void **)&items->values, &items->capacity, items->count + count,
                      sizeof *items->values);
    if (result != EXIT_OK)
        return result;
    memcpy(items->values + items->count, values, count * sizeof *values);
    items->count += count;
    return EXIT_OK;
}

static int parse_decimal(struct pickle_parser *parser, const unsigned char *text, size_t length,
                         int64_t *value)
{
    const char *why = pickle_text_decimal(text, length, value);
    return why == NULL ? EXIT_OK : pickle_refuse(parser, why);
}

static int run_text_integer(struct pickle_parser *parser)
{
    unsigned char *line = NULL;
    size_t length;
    int64_t value;
    int result = take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    if (parser->opcode == 'I' && length == 2 && line[0] == '0' && (line[1] == '0' || line[1] == '1'))
        return push_integer(parser, PICKLE_BOOL, line[1] == '1');
    result = parse_decimal(parser, line, length, &value);
    return result == EXIT_OK ? push_integer(parser, PICKLE_INT, value) : result;
}

static int run_binary_integer(struct pickle_parser *parser, int width, bool is_signed)
{
    uint64_t raw;
    int result = take_unsigned(parser, width, &raw);
    if (result != EXIT_OK)
        return result;
    int64_t value = (int64_t)raw;
    if (is_signed && width < 8 && (raw >> (8 * width - 1)) != 0)
        value = (int64_t)(raw | ~((UINT64_C(1) << (8 * width)) - 1));
    return push_integer(parser, PICKLE_INT, value);
}

/* LONG1 / LONG4: a little-endian two's complement integer of a given byte count. */
static int run_long(struct pickle_parser *parser, int count_width)
{
    uint64_t count;
    int result = take_unsigned(parser, count_width, &count);
    if (result != EXIT_OK)
        return result;
    if (count > 8)
        return pickle_refuse(parser, "integer too large");
    if (count == 0)
        return push_integer(parser, PICKLE_INT, 0);
    return run_binary_integer(parser, (int)count, true);
}

static int run_counted_string(struct pickle_parser *parser, int width, enum pickle_type type)
{
    uint64_t length;
    unsigned char *bytes = NULL;
    int result = take_unsigned(parser, width, &length);
    if (result == EXIT_OK && parser->opcode == 'T' && (length >> 31) != 0)
        return pickle_refuse(parser, "negative length");
    if (result == EXIT_OK)
        result = take(parser, length, &bytes);
    return result == EXIT_OK ? push_string(parser, type, bytes, (size_t)length) : result;
}

/* STRING: a quoted Python 2 repr, unescaped in place (the result is never longer). */
static int run_quoted_string(struct pickle_parser *parser)
{
    unsigned char *line = NULL;
    size_t length, written;
    int result = take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    if (!pickle_text_unquote(line, length, &written))
        return pickle_refuse(parser, "malformed quoted string");
    result = push_string(parser, PICKLE_BYTES, line, written);
    if (result == EXIT_OK)
        parser->stack[parser->stack_count - 1].string->as_read = false;
    return result;
}

/* UNICODE: raw-unicode-escape text, made UTF-8 (at most twice as long). */
static int run_escaped_unicode(struct pickle_parser *parser)
{
    unsigned char *line = NULL;
    size_t length, written;
    int result = take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    unsigned char *text = pickle_allocate(parser, 2 * length + 1);
    if (text == NULL)
        return error_code();
    if (!pickle_text_unescape_unicode(line, length, text, &written))
        return pickle_refuse(parser, "malformed escape in unicode string");
    return push_string(parser, PICKLE_TEXT, text, written);
}

static int set_memo(struct pickle_parser *parser, uint64_t index)
{
    struct pickle_value *value = NULL;
    int result = top(parser, &value);
    if (result != EXIT_OK)
        return result;
    if (index >= MAXIMUM_MEMO || index >= parser->size)
        return pickle_refuse(parser, "memo index too large");
    size_t old_capacity = parser->memo_capacity;
    result = grow(parser, (void **)&parser->memo, &parser->memo_capacity, (size_t)index + 1,
                  sizeof *parser->memo);
    if (result != EXIT_OK)
        return result;
    for (size_t slot = old_capacity; slot < parser->memo_capacity; slot++)
        parser->memo[slot].type = PICKLE_UNSET;
    if (parser->memo[index].type == PICKLE_UNSET)
        parser->memo_count++;
    parser->memo[index] = *value;
    return EXIT_OK;
}

static int get_memo(struct pickle_parser *parser, uint64_t index)
{
    if (index >= parser->memo_capacity || parser->memo[index].type == PICKLE_UNSET)
        return pickle_refuse(parser, "memo index never set");
    return push(parser, parser->memo[index]);
}

static int run_memo(struct pickle_parser *parser, int width, bool put)
{
    uint64_t index;
    int result = take_unsigned(parser, width, &index);
    if (result != EXIT_OK)
        return result;
    return put ? set_memo(parser, index) : get_memo(parser, index);
}

static int run_text_memo(struct pickle_parser *parser, bool put)
{
    unsigned char *line = NULL;
    size_t length;
    int64_t index;
    int result = take_line(parser, &line, &length);
    if (result == EXIT_OK)
        result = parse_decimal(parser, line, length, &index);
    if (result == EXIT_OK && index < 0)
        return pickle_refuse(parser, "negative memo index");
    if (result != EXIT_OK)
        return result;
    return put ? set_memo(parser, (uint64_t)index) : get_memo(parser, (uint64_t)index);
}

static int run_mark(struct pickle_parser *parser)
{
    if (parser->mark_count == MAXIMUM_DEPTH)
        return pickle_refuse(parser, "nesting too deep");
    parser->marks[parser->mark_count++] = parser->stack_count;
    return EXIT_OK;
}

/* Pops everything above the last mark: *VALUES (still in the stack array) and *COUNT. */
static int pop_to_mark(struct pickle_parser *parser, struct pickle_value **values, size_t *count)
{
    if (parser->mark_count == 0)
        return pickle_refuse(parser, "no mark");
    size_t mark = parser->marks[--parser->mark_count];
    *count = parser->stack_count - mark;
    /* The stack is still NULL when nothing was ever pushed: no pointer arithmetic on it. */
    *values = *count > 0 ? parser->stack + mark : NULL;
    parser->stack_count = mark;
    return EXIT_OK;
}

/* TUPLE, LIST, DICT: a new container of what lies above the last mark. */
static int run_collect(struct pickle_parser *parser, enum pickle_type type)
{
    struct pickle_value *values = NULL;
    size_t count = 0;
    int result = pop_to_mark(parser, &values, &count);
    if (result != EXIT_OK)
        return result;
    if (type == PICKLE_DICT && count % 2 != 0)
        return pickle_refuse(parser, "odd number of dict items");
    struct pickle_value container;
    result = new_container(parser, type, &container);
    if (result == EXIT_OK)
        result = append_items(parser, container.items, values, count);
    return result == EXIT_OK ? push(parser, container) : result;
}

static int run_small_tuple(struct pickle_parser *parser, size_t count)
{
    struct pickle_value values[3];
    for (size_t index = count; index > 0; index--) {
        int result = pop(parser, &values[index - 1]);
        if (result != EXIT_OK)
            return result;
    }
    struct pickle_value tuple;
    int result = new_container(parser, PICKLE_TUPLE, &tuple);
    if (result == EXIT_OK)
        result = append_items(parser, tuple.items, values, count);
    return result == EXIT_OK ? push(parser, tuple) : result;
}

/* APPEND(S), SETITEM(S): adds the values above the mark (or the top one or two) to a container. */
static int run_add(struct pickle_parser *parser, enum pickle_type type, bool marked)
{
    struct pickle_value *values = NULL;
    size_t count = type == PICKLE_DICT ? 2 : 1;
    int result;
    if (marked) {
        result = pop_to_mark(parser, &values, &count);
    } else if (parser->stack_count < floor_of_stack(parser) + count) {
        result = pickle_refuse(parser, "stack underflow");
    } else {
        parser->stack_count -= count;
        values = parser->stack + parser->stack_count;
        result = EXIT_OK;
    }
    if (result != EXIT_OK)
        return result;
    struct pickle_value *container = NULL;
    result = top(parser, &container);
    if (result != EXIT_OK)
        return result;
    if (container->type != type)
        return pickle_refuse(parser, type == PICKLE_DICT ? "items added to a non-dict"
                                                         : "items appended to a non-list");
    if (type == PICKLE_DICT && count % 2 != 0)
        return pickle_refuse(parser, "odd number of dict items");
    return append_items(parser, container->items, values, count);
}

static int run_global(struct pickle_parser *parser)
{
    unsigned char *module, *name;
    size_t module_length, name_length;
    int result = take_line(parser, &module, &module_length);
    if (result == EXIT_OK)
        result = take_line(parser, &name, &name_length);
    struct pickle_value global;
    if (result == EXIT_OK)
        result = pickle_find_global(parser, (const char *)module, module_length,
                                    (const char *)name, name_length, &global);
    return result == EXIT_OK ? push(parser, global) : result;
}

static int run_stack_global(struct pickle_parser *parser)
{
    struct pickle_value module = {0}, name = {0}, global;
    int result = pop(parser, &name);
    if (result == EXIT_OK)
        result = pop(parser, &module);
    if (result != EXIT_OK)
        return result;
    if (module.type != PICKLE_TEXT || name.type != PICKLE_TEXT)
        return pickle_refuse(parser, "global named by something other than text");
    result = pickle_find_global(parser, (const char *)module.string->bytes, module.string->length,
                                (const char *)name.string->bytes, name.string->length, &global);
    return result == EXIT_OK ? push(parser, global) : result;
}

static int run_reduce(struct pickle_parser *parser)
{
    struct pickle_value callable = {0}, arguments = {0}, result_value;
    int result = pop(parser, &arguments);
    if (result == EXIT_OK)
        result = pop(parser, &callable);
    if (result == EXIT_OK)
        result = pickle_reduce(parser, &callable, &arguments, &result_value);
    return result == EXIT_OK ? push(parser, result_value) : result;
}

static int run_build(struct pickle_parser *parser)
{
    struct pickle_value state, *object = NULL;
    int result = pop(parser, &state);
    if (result == EXIT_OK)
        result = top(parser, &object);
    return result == EXIT_OK ? pickle_build(parser, object, &state) : result;
}

static int run_frame(struct pickle_parser *parser)
{
    uint64_t length;
    int result = take_unsigned(parser, 8, &length);
    if (result == EXIT_OK && length > parser->size - parser->position)
        return pickle_refuse(parser, "length past the end of the data");
    return result;
}

static int run_protocol(struct pickle_parser *parser)
{
    uint64_t protocol;
    int result = take_unsigned(parser, 1, &protocol);
    if (result == EXIT_OK && protocol > 5)
        return pickle_refuse(parser, "protocol newer than 5");
    return result;
}

static int run_pop(struct pickle_parser *parser)
{
    struct pickle_value value;
    if (parser->stack_count == floor_of_stack(parser) && parser->mark_count > 0) {
        parser->mark_count--;
        return EXIT_OK;
    }
    return pop(parser, &value);
}

static int run_pop_mark(struct pickle_parser *parser)
{
    struct pickle_value *values = NULL;
    size_t count;
    return pop_to_mark(parser, &values, &count);
}

static int run_duplicate(struct pickle_parser *parser)
{
    struct pickle_value *value = NULL;
    int result = top(parser, &value);
    return result == EXIT_OK ? push(parser, *value) : result;
}

static int run_string_opcode(struct pickle_parser *parser, bool *handled)
{
    *handled = true;
    switch (parser->opcode) {
    case 'S': return run_quoted_string(parser);
    case 'T': return run_counted_string(parser, 4, PICKLE_BYTES);
    case 'U': return run_counted_string(parser, 1, PICKLE_BYTES);
    case 'B': return run_counted_string(parser, 4, PICKLE_BYTES);
    case 'C': return run_counted_string(parser, 1, PICKLE_BYTES);
    case 0x8e: return run_counted_string(parser, 8, PICKLE_BYTES);
    case 0x96: return run_counted_string(parser, 8, PICKLE_BYTES);
    case 'V': return run_escaped_unicode(parser);
    case 'X': return run_counted_string(parser, 4, PICKLE_TEXT);
    case 0x8c: return run_counted_string(parser, 1, PICKLE_TEXT);
    case 0x8d: return run_counted_string(parser, 8, PICKLE_TEXT);
    default: *handled = false; return EXIT_OK;
    }
}

static int run_scalar_opcode(struct pickle_parser *parser, bool *handled)
{
    *handled = true;
    switch (parser->opcode) {
    case 'N': return push_integer(parser, PICKLE_NONE, 0);
    case 0x88: return push_integer(parser, PICKLE_BOOL, 1);
    case 0x89: return push_integer(parser, PICKLE_BOOL, 0);
    case 'I': return run_text_integer(parser);
    case 'L': return run_text_integer(parser);
    case 'J': return run_binary_integer(parser, 4, true);
    case 'K': return run_binary_integer(parser, 1, false);
    case 'M': return run_binary_integer(parser, 2, false);
    case 0x8a: return run_long(parser, 1);
    case 0x8b: return run_long(parser, 4);
    default: return run_string_opcode(parser, handled);
    }
}

static int run_structure_opcode(struct pickle_parser *parser, bool *handled)
{
    *handled = true;
    switch (parser->opcode) {
    case '(': return run_mark(parser);
    case '0': return run_pop(parser);
    case '1': return run_pop_mark(parser);
    case '2': return run_duplicate(parser);
    case '}': return push_container(parser, PICKLE_DICT);
    case ']': return push_container(parser, PICKLE_LIST);
    case ')': return push_container(parser, PICKLE_TUPLE);
    case 'd': return run_collect(parser, PICKLE_DICT);
    case 'l': return run_collect(parser, PICKLE_LIST);
    case 't': return run_collect(parser, PICKLE_TUPLE);
    case 0x85: return run_small_tuple(parser, 1);
    case 0x86: return run_small_tuple(parser, 2);
    case 0x87: return run_small_tuple(parser, 3);
    case 'a': return run_add(parser, PICKLE_LIST, false);
    case 'e': return run_add(parser, PICKLE_LIST, true);
    case 's': return run_add(parser, PICKLE_DICT, false);
    case 'u': return run_add(parser, PICKLE_DICT, true);
    default: return run_scalar_opcode(parser, handled);
    }
}

static int run_opcode(struct pickle_parser *parser)
{
    bool handled;
    switch (parser->opcode) {
    case 0x80: return run_protocol(parser);
    case 0x95: return run_frame(parser);
    case 'p': return run_text_memo(parser, true);
    case 'q': return run_memo(parser, 1, true);
    case 'r': return run_memo(parser, 4, true);
    case 0x94: return set_memo(parser, parser->memo_count);
    case 'g': return run_text_memo(parser, false);
    case 'h': return run_memo(parser, 1, false);
    case 'j': return run_memo(parser, 4, false);
    case 'c': return run_global(parser);
    case 0x93: return run_stack_global(parser);
    case 'R': return run_reduce(parser);
    case 'b': return run_build(parser);
    default: break;
    }
    int result = run_structure_opcode(parser, &handled);
    return handled ? result : pickle_refuse(parser, "unknown or unsupported opcode");
}

static int finish(struct pickle_parser *parser, struct pickle_value *root)
{
    if (parser->mark_count != 0 || parser->stack_count != 1)
        return pickle_refuse(parser, "stack not left with one value");
    *root = parser->stack[0];
    if (root->type > PICKLE_ARRAY || (root->type == PICKLE_ARRAY && !root->array->complete))
        return pickle_refuse(parser, "result is not plain data");
    return EXIT_OK;
}

static int run(struct pickle_parser *parser, struct pickle_value *root)
{
    for (;;) {
        parser->opcode_offset = parser->position;
        parser->opcode = parser->position < parser->size ? parser->data[parser->position] : 0;
        if (parser->position++ >= parser->size)
            return pickle_refuse(parser, "data ends before STOP");
        if (parser->opcode == '.')
            return finish(parser, root);
        int result = run_opcode(parser);
        if (result != EXIT_OK)
            return result;
    }
}

int pickle_parse(struct pickle **pickle, unsigned char *data, size_t size, const char *name,
                 struct pickle_value *root)
{
    *pickle = calloc(1, sizeof **pickle);
    if (*pickle == NULL)
        return error_set(EXIT_OTHER, "cannot read pickle: %s: out of memory", name);
    struct pickle_parser parser = {
        .data = data,
        .size = size,
        .name = name,
        .budget = FIXED_BUDGET + (size < SIZE_MAX / BUDGET_PER_BYTE - FIXED_BUDGET
                                      ? size * BUDGET_PER_BYTE
                                      : SIZE_MAX / 2),
        .pickle = *pickle,
    };
    int result = run(&parser, root);
    free(parser.stack);
    free(parser.memo);
    if (result != EXIT_OK) {
        pickle_free(*pickle);
        *pickle = NULL;
    }
    return result;
}

bool pickle_string_equals(const struct pickle_value *value, const char *text)
{
    if (value->type != PICKLE_TEXT && value->type != PICKLE_BYTES)
        return false;
    size_t length = strlen(text);
    return value->string->length == length && memcmp(value->string->bytes, text, length) == 0;
}

const struct pickle_value *pickle_dict_find(const struct pickle_value *dict, const char *key)
{
    if (dict->type != PICKLE_DICT)
        return NULL;
    const struct pickle_value *found = NULL;
    for (size_t index = 0; index + 1 < dict->items->count; index += 2)
        if (pickle_string_equals(&dict->items->values[index], key))
            found = &dict->items->values[index + 1];
    return found;
}

void pickle_free(struct pickle *pickle)
{
    if (pickle == NULL)
        return;
    for (struct pickle_items *items = pickle->containers; items != NULL; items = items->next)
        free(items->values);
    while (pickle->blocks != NULL) {
        struct arena_block *next = pickle->blocks->next;
        free(pickle->blocks);
        pickle->blocks = next;
    }
    free(pickle);
}
