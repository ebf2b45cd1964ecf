/* The pickle opcodes, protocols 0 to 5, each run on the parser's stack; plain data only. */
#include "common/base/error.h"
#include "pickle_parser.h"

enum { MAXIMUM_MEMO = 1 << 22 };

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
    int result = pickle_take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    if (parser->opcode == 'I' && length == 2 && line[0] == '0' && (line[1] == '0' || line[1] == '1'))
        return pickle_push_integer(parser, PICKLE_BOOL, line[1] == '1');
    result = parse_decimal(parser, line, length, &value);
    return result == EXIT_OK ? pickle_push_integer(parser, PICKLE_INT, value) : result;
}

static int run_binary_integer(struct pickle_parser *parser, int width, bool is_signed)
{
    uint64_t raw;
    int result = pickle_take_unsigned(parser, width, &raw);
    if (result != EXIT_OK)
        return result;
    int64_t value = (int64_t)raw;
    if (is_signed && width < 8 && (raw >> (8 * width - 1)) != 0)
        value = (int64_t)(raw | ~((UINT64_C(1) << (8 * width)) - 1));
    return pickle_push_integer(parser, PICKLE_INT, value);
}

/* LONG1 / LONG4: a little-endian two's complement integer of a given byte count. */
static int run_long(struct pickle_parser *parser, int count_width)
{
    uint64_t count;
    int result = pickle_take_unsigned(parser, count_width, &count);
    if (result != EXIT_OK)
        return result;
    if (count > 8)
        return pickle_refuse(parser, "integer too large");
    if (count == 0)
        return pickle_push_integer(parser, PICKLE_INT, 0);
    return run_binary_integer(parser, (int)count, true);
}

static int run_counted_string(struct pickle_parser *parser, int width, enum pickle_type type)
{
    uint64_t length;
    unsigned char *bytes = NULL;
    int result = pickle_take_unsigned(parser, width, &length);
    if (result == EXIT_OK && parser->opcode == 'T' && (length >> 31) != 0)
        return pickle_refuse(parser, "negative length");
    if (result == EXIT_OK)
        result = pickle_take(parser, length, &bytes);
    return result == EXIT_OK ? pickle_push_string(parser, type, bytes, (size_t)length) : result;
}

/* STRING: a quoted Python 2 repr, unescaped in place (the result is never longer). */
static int run_quoted_string(struct pickle_parser *parser)
{
    unsigned char *line = NULL;
    size_t length, written;
    int result = pickle_take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    if (!pickle_text_unquote(line, length, &written))
        return pickle_refuse(parser, "malformed quoted string");
    result = pickle_push_string(parser, PICKLE_BYTES, line, written);
    if (result == EXIT_OK)
        parser->stack[parser->stack_count - 1].string->as_read = false;
    return result;
}

/* UNICODE: raw-unicode-escape text, made UTF-8 (at most twice as long). */
static int run_escaped_unicode(struct pickle_parser *parser)
{
    unsigned char *line = NULL;
    size_t length, written;
    int result = pickle_take_line(parser, &line, &length);
    if (result != EXIT_OK)
        return result;
    unsigned char *text = pickle_allocate(parser, 2 * length + 1);
    if (text == NULL)
        return error_code();
    if (!pickle_text_unescape_unicode(line, length, text, &written))
        return pickle_refuse(parser, "malformed escape in unicode string");
    return pickle_push_string(parser, PICKLE_TEXT, text, written);
}

static int set_memo(struct pickle_parser *parser, uint64_t index)
{
    struct pickle_value *value = NULL;
    int result = pickle_top(parser, &value);
    if (result != EXIT_OK)
        return result;
    if (index >= MAXIMUM_MEMO || index >= parser->size)
        return pickle_refuse(parser, "memo index too large");
    size_t old_capacity = parser->memo_capacity;
    result = pickle_grow(parser, (void **)&parser->memo, &parser->memo_capacity,
                         (size_t)index + 1, sizeof *parser->memo);
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
    return pickle_push(parser, parser->memo[index]);
}

static int run_memo(struct pickle_parser *parser, int width, bool put)
{
    uint64_t index;
    int result = pickle_take_unsigned(parser, width, &index);
    if (result != EXIT_OK)
        return result;
    return put ? set_memo(parser, index) : get_memo(parser, index);
}

static int run_text_memo(struct pickle_parser *parser, bool put)
{
    unsigned char *line = NULL;
    size_t length;
    int64_t index;
    int result = pickle_take_line(parser, &line, &length);
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
    if (parser->mark_count == PICKLE_MAXIMUM_DEPTH)
        return pickle_refuse(parser, "nesting too deep");
    parser->marks[parser->mark_count++] = parser->stack_count;
    return EXIT_OK;
}

/* TUPLE, LIST, DICT: a new container of what lies above the last mark. */
static int run_collect(struct pickle_parser *parser, enum pickle_type type)
{
    struct pickle_value *values = NULL;
    size_t count = 0;
    int result = pickle_pop_to_mark(parser, &values, &count);
    if (result != EXIT_OK)
        return result;
    if (type == PICKLE_DICT && count % 2 != 0)
        return pickle_refuse(parser, "odd number of dict items");
    struct pickle_value container;
    result = pickle_new_container(parser, type, &container);
    if (result == EXIT_OK)
        result = pickle_append_items(parser, container.items, values, count);
    return result == EXIT_OK ? pickle_push(parser, container) : result;
}

static int run_small_tuple(struct pickle_parser *parser, size_t count)
{
    struct pickle_value values[3];
    for (size_t index = count; index > 0; index--) {
        int result = pickle_pop(parser, &values[index - 1]);
        if (result != EXIT_OK)
            return result;
    }
    struct pickle_value tuple;
    int result = pickle_new_container(parser, PICKLE_TUPLE, &tuple);
    if (result == EXIT_OK)
        result = pickle_append_items(parser, tuple.items, values, count);
    return result == EXIT_OK ? pickle_push(parser, tuple) : result;
}

/* APPEND(S), SETITEM(S): adds the values above the mark (or the top one or two) to a container. */
static int run_add(struct pickle_parser *parser, enum pickle_type type, bool marked)
{
    struct pickle_value *values = NULL;
    size_t count = type == PICKLE_DICT ? 2 : 1;
    int result;
    if (marked) {
        result = pickle_pop_to_mark(parser, &values, &count);
    } else if (parser->stack_count < pickle_stack_floor(parser) + count) {
        result = pickle_refuse(parser, "stack underflow");
    } else {
        parser->stack_count -= count;
        values = parser->stack + parser->stack_count;
        result = EXIT_OK;
    }
    if (result != EXIT_OK)
        return result;
    struct pickle_value *container = NULL;
    result = pickle_top(parser, &container);
    if (result != EXIT_OK)
        return result;
    if (container->type != type)
        return pickle_refuse(parser, type == PICKLE_DICT ? "items added to a non-dict"
                                                         : "items appended to a non-list");
    if (type == PICKLE_DICT && count % 2 != 0)
        return pickle_refuse(parser, "odd number of dict items");
    return pickle_append_items(parser, container->items, values, count);
}

static int run_global(struct pickle_parser *parser)
{
    unsigned char *module, *name;
    size_t module_length, name_length;
    int result = pickle_take_line(parser, &module, &module_length);
    if (result == EXIT_OK)
        result = pickle_take_line(parser, &name, &name_length);
    struct pickle_value global;
    if (result == EXIT_OK)
        result = pickle_find_global(parser, (const char *)module, module_length,
                                    (const char *)name, name_length, &global);
    return result == EXIT_OK ? pickle_push(parser, global) : result;
}

static int run_stack_global(struct pickle_parser *parser)
{
    struct pickle_value module = {0}, name = {0}, global;
    int result = pickle_pop(parser, &name);
    if (result == EXIT_OK)
        result = pickle_pop(parser, &module);
    if (result != EXIT_OK)
        return result;
    if (module.type != PICKLE_TEXT || name.type != PICKLE_TEXT)
        return pickle_refuse(parser, "global named by something other than text");
    result = pickle_find_global(parser, (const char *)module.string->bytes, module.string->length,
                                (const char *)name.string->bytes, name.string->length, &global);
    return result == EXIT_OK ? pickle_push(parser, global) : result;
}

static int run_reduce(struct pickle_parser *parser)
{
    struct pickle_value callable = {0}, arguments = {0}, result_value;
    int result = pickle_pop(parser, &arguments);
    if (result == EXIT_OK)
        result = pickle_pop(parser, &callable);
    if (result == EXIT_OK)
        result = pickle_reduce(parser, &callable, &arguments, &result_value);
    return result == EXIT_OK ? pickle_push(parser, result_value) : result;
}

static int run_build(struct pickle_parser *parser)
{
    struct pickle_value state, *object = NULL;
    int result = pickle_pop(parser, &state);
    if (result == EXIT_OK)
        result = pickle_top(parser, &object);
    return result == EXIT_OK ? pickle_build(parser, object, &state) : result;
}

static int run_frame(struct pickle_parser *parser)
{
    uint64_t length;
    int result = pickle_take_unsigned(parser, 8, &length);
    if (result == EXIT_OK && length > parser->size - parser->position)
        return pickle_refuse(parser, "length past the end of the data");
    return result;
}

static int run_protocol(struct pickle_parser *parser)
{
    uint64_t protocol;
    int result = pickle_take_unsigned(parser, 1, &protocol);
    if (result == EXIT_OK && protocol > 5)
        return pickle_refuse(parser, "protocol newer than 5");
    return result;
}

static int run_pop(struct pickle_parser *parser)
{
    struct pickle_value value;
    if (parser->stack_count == pickle_stack_floor(parser) && parser->mark_count > 0) {
        parser->mark_count--;
        return EXIT_OK;
    }
    return pickle_pop(parser, &value);
}

static int run_pop_mark(struct pickle_parser *parser)
{
    struct pickle_value *values = NULL;
    size_t count;
    return pickle_pop_to_mark(parser, &values, &count);
}

static int run_duplicate(struct pickle_parser *parser)
{
    struct pickle_value *value = NULL;
    int result = pickle_top(parser, &value);
    return result == EXIT_OK ? pickle_push(parser, *value) : result;
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
    case 'N': return pickle_push_integer(parser, PICKLE_NONE, 0);
    case 0x88: return pickle_push_integer(parser, PICKLE_BOOL, 1);
    case 0x89: return pickle_push_integer(parser, PICKLE_BOOL, 0);
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
    case '}': return pickle_push_container(parser, PICKLE_DICT);
    case ']': return pickle_push_container(parser, PICKLE_LIST);
    case ')': return pickle_push_container(parser, PICKLE_TUPLE);
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

int pickle_run_opcode(struct pickle_parser *parser)
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
