/* libFuzzer target: the .npy header reader (preamble, the dictionary as a Python literal, the
   dtype and the shape's size), on the input's first bytes as a file's start. */
#include "common/formats/npy/npy.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    size_t length;
    if (npy_header_length(data, size, "fuzz.npy", &length) != 0 || length > size)
        return 0;
    struct npy_array array;
    if (npy_header_parse(data, length, "fuzz.npy", &array) != 0)
        return 0;
    /* What a reader relies on: the shape's size computed without overflow. */
    uint64_t elements = 1;
    for (int axis = 0; axis < array.rank; axis++)
        elements *= array.shape[axis];
    if (elements != array.elements || array.data_bytes != elements * array.item_size ||
        array.header_length != length || array.rank > NPY_MAX_RANK)
        __builtin_trap();
    return 0;
}
