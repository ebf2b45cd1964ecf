/* Formats .npy format 1.0 headers byte for byte as numpy.lib.format writes them. */
#include "npy.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { PREAMBLE = 10, ALIGNMENT = 64 };

/* numpy's repr of a shape tuple: "()", "(5,)", "(5, 3)". */
static size_t shape_text(char *text, size_t size, const uint64_t *shape, int rank)
{
    size_t length = (size_t)snprintf(text, size, "(");
    for (int axis = 0; axis < rank && length < size; axis++)
        length += (size_t)snprintf(text + length, size - length, "%s%" PRIu64, axis ? ", " : "",
                                   shape[axis]);
    if (length < size)
        length += (size_t)snprintf(text + length, size - length, rank == 1 ? ",)" : ")");
    return length;
}

size_t npy_header(char header[NPY_HEADER_MAX], const char *descr, const uint64_t *shape, int rank)
{
    if (rank < 0 || rank > NPY_MAX_RANK)
        return 0;
    char shape_repr[NPY_MAX_RANK * 24 + 4];
    shape_text(shape_repr, sizeof shape_repr, shape, rank);
    char *dictionary = header + PREAMBLE;
    int length = snprintf(dictionary, NPY_HEADER_MAX - PREAMBLE - ALIGNMENT,
                          "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr,
                          shape_repr);
    size_t total = PREAMBLE + (size_t)length + 1;
    size_t padded = (total + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    memset(dictionary + length, ' ', padded - total);
    header[padded - 1] = '\n';
    memcpy(header, "\x93NUMPY\x01\x00", 8);
    size_t dictionary_length = padded - PREAMBLE;
    header[8] = (char)(dictionary_length & 0xff);
    header[9] = (char)(dictionary_length >> 8);
    return padded;
}
