/* Reads the examples of a variable-length byte source of one axis (stored JPEGs) in runs of
   consecutive examples into buffers of our own, their sizes from the shapes scale checked
   against the 64 MiB bound before anything is read: with pread from the file when its layout
   allows, else one HDF5 read per run. */
#ifndef FUEL_STORED_BYTES_H
#define FUEL_STORED_BYTES_H

#include "common/h5py/h5py_vlen_examples.h"

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

struct stored_bytes {
    hid_t transfer; /* a transfer list: our malloc and free for the examples, a small buffer */
    uint64_t direct_examples; /* how many were read straight from the file */
};

int stored_bytes_open(struct stored_bytes *reader);
void stored_bytes_close(struct stored_bytes *reader);

/* The sizes of the examples INDICES[0..COUNT) of SOURCE (which has a shapes scale of one column)
   into SIZES. EXIT_CORRUPT_INPUT when one exceeds H5PY_VLEN_MAX_BYTES or cannot be read. */
int stored_bytes_sizes(const struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                       const uint64_t *indices, size_t count, uint64_t *sizes);

/* Reads the examples INDICES[0..COUNT), of SIZES bytes, into DATA[i] (malloc'd; the caller frees
   them, also after a failure). EXIT_CORRUPT_INPUT when one holds another number of bytes. */
int stored_bytes_read(struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                      const uint64_t *indices, size_t count, const uint64_t *sizes, void **data);

#endif
