/* The pickle parser's value stack, its marks, and its cursor over the data. */
#include "common/base/error.h"
#include "pickle_parser.h"

#include <string.h>

int pickle_push(struct pickle_parser *parser, struct pickle_value value)
{
    int result = pickle_grow(parser, (void **)&parser->stack, &parser->stack_capacity,
                             parser->stack_count + 1, sizeof *parser->stack);
    if (result == EXIT_OK)
        parser->stack[parser->stack_count++] = value;
    return result;
}

size_t pickle_stack_floor(const struct pickle_parser *parser)
{
    return parser->mark_count > 0 ? parser->marks[parser->mark_count - 1] : 0;
}

int pickle_pop(struct pickle_parser *parser, struct pickle_value *value)
{
    if (parser->stack_count <= pickle_stack_floor(parser))
        return pickle_refuse(parser, "stack underflow");
    *value = parser->stack[--parser->stack_count];
    return EXIT_OK;
}

int pickle_top(struct pickle_parser *parser, struct pickle_value **value)
{
    if (parser->stack_count <= pickle_stack_floor(parser))
        return pickle_refuse(parser, "stack underflow");
    *value = &parser->stack[parser->stack_count - 1];
    return EXIT_OK;
}

/* Points *BYTES at the next COUNT bytes of data and passes over them. */
int pickle_take(struct pickle_parser *parser, uint64_t count, unsigned char **bytes)
{
    if (count > parser->size - parser->position)
        return pickle_refuse(parser, "length past the end of the data");
    *bytes = parser->data + parser->position;
    parser->position += (size_t)count;
    return EXIT_OK;
}

int pickle_take_unsigned(struct pickle_parser *parser, int width, uint64_t *value)
{
    unsigned char *bytes = NULL;
    int result = pickle_take(parser, (uint64_t)width, &bytes);
    *value = 0;
    for (int index = width - 1; result == EXIT_OK && index >= 0; index--)
        *value = (*value << 8) | bytes[index];
    return result;
}

/* The text up to the next newline (protocol 0 arguments), newline passed over. */
int pickle_take_line(struct pickle_parser *parser, unsigned char **line, size_t *length)
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

int pickle_push_integer(struct pickle_parser *parser, enum pickle_type type, int64_t integer)
{
    return pickle_push(parser, (struct pickle_value){.type = type, .integer = integer});
}

int pickle_push_string(struct pickle_parser *parser, enum pickle_type type, unsigned char *bytes,
                       size_t length)
{
    struct pickle_string *string = pickle_allocate(parser, sizeof *string);
    if (string == NULL)
        return error_code();
    bool inside = bytes >= parser->data && bytes < parser->data + parser->size;
    *string = (struct pickle_string){bytes, length, type == PICKLE_TEXT, inside};
    return pickle_push(parser, (struct pickle_value){.type = type, .string = string});
}

int pickle_new_container(struct pickle_parser *parser, enum pickle_type type,
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

int pickle_push_container(struct pickle_parser *parser, enum pickle_type type)
{
    struct pickle_value container;
    int result = pickle_new_container(parser, type, &container);
    return result == EXIT_OK ? pickle_push(parser, container) : result;
}

int pickle_append_items(struct pickle_parser *parser, struct pickle_items *items,
                        const struct pickle_value *values, size_t count)
{
    if (count == 0)
        return EXIT_OK;
    int result = pickle_grow(parser, (void **)&items->values, &items->capacity,
                             items->count + count, sizeof *items->values);
    if (result != EXIT_OK)
        return result;
    memcpy(items->values + items->count, values, count * sizeof *values);
    items->count += count;
    return EXIT_OK;
}

/* Pops everything above the last mark: *VALUES (still in the stack array) and *COUNT. */
int pickle_pop_to_mark(struct pickle_parser *parser, struct pickle_value **values, size_t *count)
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
