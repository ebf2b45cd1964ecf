/* libFuzzer target: the safe pickle reader, then the lookups the CIFAR converters make. */
#include "common/formats/pickle/pickle_read.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Touches every byte a parsed value points to, so ASan sees any reference out of the input.
   Memo references make the values a DAG that may expand exponentially: the walk is budgeted. */
static unsigned walk(const struct pickle_value *value, int depth, size_t *budget)
{
    unsigned sum = 0;
    if (depth > 64 || *budget == 0)
        return 0;
    --*budget;
    switch (value->type) {
    case PICKLE_TEXT:
    case PICKLE_BYTES:
        for (size_t index = 0; index < value->string->length; index++)
            sum += value->string->bytes[index];
        break;
    case PICKLE_LIST:
    case PICKLE_TUPLE:
    case PICKLE_DICT:
        for (size_t index = 0; index < value->items->count; index++)
            sum += walk(&value->items->values[index], depth + 1, budget);
        break;
    case PICKLE_ARRAY:
        if (value->array->complete)
            for (uint64_t index = 0; index < value->array->size; index++)
                sum += value->array->data[index];
        break;
    default:
        break;
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    unsigned char *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    struct pickle *pickle;
    struct pickle_value root;
    if (pickle_parse(&pickle, copy, size, "fuzz", &root) == 0) {
        size_t budget = 1 << 16;
        walk(&root, 0, &budget);
        if (root.type == PICKLE_DICT) {
            pickle_dict_find(&root, "data");
            pickle_dict_find(&root, "labels");
            pickle_dict_find(&root, "fine_labels");
        }
        pickle_free(pickle);
    }
    free(copy);
    return 0;
}
