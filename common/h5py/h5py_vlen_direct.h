/* Variable-length byte examples read straight from the file when its layout allows (h5py's
   defaults: a contiguous, unfiltered dataset of heap IDs, 8-byte offsets and lengths, no user
   block, the sec2 driver): each example's heap ID with pread, its object found in its global
   heap collection (each collection's objects listed once, as HDF5 caches a collection), its
   bytes read into a buffer of our own. Anything unexpected is left to HDF5, which reads what the
   file says or reports what is wrong with it. Used from one thread at a time. */
#ifndef FUEL_H5PY_VLEN_DIRECT_H
#define FUEL_H5PY_VLEN_DIRECT_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_table;

struct h5py_vlen_direct {
    int descriptor;     /* HDF5's own descriptor of the file; -1: read through HDF5 */
    uint64_t file_size;
    uint64_t offset;    /* of the heap IDs */
    uint64_t count;     /* examples */
    struct heap_table *table; /* the objects of the collection last read, walked once */
};

/* Prepares direct reads of DATASET's COUNT examples of 1-byte elements; DIRECT->descriptor -1
   when they cannot be. */
void h5py_vlen_direct_open(struct h5py_vlen_direct *direct, hid_t dataset, uint64_t count);

void h5py_vlen_direct_close(struct h5py_vlen_direct *direct);

/* Examples FIRST to FIRST + LENGTH, of SIZES bytes, into DATA[i] (malloc'd). False, with nothing
   kept in DATA, when the file is not as expected there. */
bool h5py_vlen_direct_read_run(const struct h5py_vlen_direct *direct, uint64_t first,
                               size_t length, const uint64_t *sizes, void **data);

/* Example INDEX of at most LIMIT bytes into *DATA (malloc'd), its size in *SIZE. False, with
   nothing kept, when the file is not as expected there or the example holds more. */
bool h5py_vlen_direct_read(const struct h5py_vlen_direct *direct, uint64_t index, uint64_t limit,
                           void **data, size_t *size);

#endif
