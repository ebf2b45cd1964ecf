/* Parses a pickle: the opcode loop up to STOP, within a memory budget; lookups in the result. */
#include "pickle_read.h"

#include "common/base/error.h"
#include "pickle_parser.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FIXED_BUDGET = 1 << 20, BUDGET_PER_BYTE = 16 };

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
        int result = pickle_run_opcode(parser);
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
