/* Reads the examples of a source straight from the file with pread when HDF5 would only copy
   them: a contiguous, unfiltered dataset stored in its in-memory form (h5py's default layout). */
#ifndef FUEL_H5PY_DIRECT_H
#define FUEL_H5PY_DIRECT_H

#include "h5py_examples.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct h5py_direct {
    int descriptor;       /* -1 when the source must be read through HDF5 */
    uint64_t offset;      /* of the dataset's data in the file */
    size_t example_bytes;
    uint64_t examples;
};

/* Prepares direct reads of EXAMPLES of the file at PATH: true when its layout allows them,
   false (DIRECT unusable, nothing to close) when the reads must go through HDF5. */
bool h5py_direct_open(struct h5py_direct *direct, const struct h5py_examples *examples,
                      const char *path);

void h5py_direct_close(struct h5py_direct *direct);

/* Reads examples [FIRST, FIRST + COUNT) into BUFFER. EXIT_CORRUPT_INPUT when the file ends
   early or the range is past the source's end. */
int h5py_direct_read(const struct h5py_direct *direct, uint64_t first, uint64_t count,
                     void *buffer);

/* Reads examples INDICES[0..COUNT) into BUFFER in that order, in increasing file order. */
int h5py_direct_read_indices(const struct h5py_direct *direct, const uint64_t *indices,
                             size_t count, void *buffer);

#endif
