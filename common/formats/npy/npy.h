/* NumPy's .npy header: written (format 1.0, so numpy.load(..., mmap_mode='r') maps the data that
   follows) and read (formats 1.0 to 3.0, numeric and bool dtypes). */
#ifndef FUEL_NPY_H
#define FUEL_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for the longest header npy_header writes (format 1.0 allows 65535 bytes). */
#define NPY_HEADER_MAX 4096
#define NPY_MAX_RANK 32

/* Writes into HEADER the magic, version 1.0, length and the dictionary of a C-order array of
   DESCR ("<f4", "|u1", "|b1", ...) and SHAPE[0..RANK), space-padded and ended by a newline so the
   data starts at a multiple of 64 bytes, as numpy writes it. Returns the header's length, 0 when
   RANK is out of range. */
size_t npy_header(char header[NPY_HEADER_MAX], const char *descr, const uint64_t *shape, int rank);

/* The longest header npy_header_length accepts, preamble included: numpy writes format 1.0
   (at most 65535 bytes of dictionary) unless a structured dtype does not fit, which fuel refuses. */
#define NPY_READ_HEADER_MAX 65548u
/* The bytes npy_header_length needs to find the header's length. */
#define NPY_PREAMBLE_MAX 12u

/* What a .npy header declares of its array. */
struct npy_array {
    char kind;          /* 'b' bool, 'i' signed integer, 'u' unsigned integer, 'f' float */
    unsigned item_size; /* bytes of an element: 1, 2, 4 or 8 (floats 4 or 8) */
    bool big_endian;    /* elements stored most significant byte first */
    bool fortran_order; /* the first axis varies fastest */
    int rank;
    uint64_t shape[NPY_MAX_RANK];
    uint64_t elements;   /* the product of the shape */
    uint64_t data_bytes; /* elements * item_size */
    size_t header_length; /* the bytes before the data: preamble, dictionary, padding */
};

/* The length of the whole header from its first SIZE bytes at START (NPY_PREAMBLE_MAX suffice).
   EXIT_CORRUPT_INPUT naming NAME when they are not a .npy preamble (magic, a version from 1.0 to
   3.0) or the header is longer than NPY_READ_HEADER_MAX. */
int npy_header_length(const unsigned char *start, size_t size, const char *name, size_t *length);

/* Parses the LENGTH bytes of a whole header at HEADER (npy_header_length's) into ARRAY.
   EXIT_CORRUPT_INPUT naming NAME for a dictionary that is not numpy's ('descr', 'fortran_order'
   and 'shape', nothing else), a dtype other than bool, integers and float32/64 (an object dtype
   would be a pickle), a rank above NPY_MAX_RANK, or a shape whose bytes overflow 64 bits. */
int npy_header_parse(const unsigned char *header, size_t length, const char *name,
                     struct npy_array *array);

#endif
