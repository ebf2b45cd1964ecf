/* NumPy's .npy format 1.0 header, so numpy.load(..., mmap_mode='r') maps the data that follows. */
#ifndef FUEL_NPY_H
#define FUEL_NPY_H

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

#endif
