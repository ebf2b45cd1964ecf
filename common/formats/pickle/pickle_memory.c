/* A pickle's memory: an arena of blocks freed at once, and growable arrays, within a budget. */
#include "common/base/error.h"
#include "pickle_parser.h"

#include <stdlib.h>
#include <string.h>

enum { ARENA_BLOCK = 1 << 16 };

struct arena_block {
    struct arena_block *next;
    size_t used;
    size_t size;
    unsigned char bytes[];
};

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
int pickle_grow(struct pickle_parser *parser, void **array, size_t *capacity, size_t needed,
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
