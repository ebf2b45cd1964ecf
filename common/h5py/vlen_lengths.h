/* The lengths variable-length strings declare where they are stored, read through HDF5 without
   HDF5 reading the strings: H5Aread and H5Dread allocate what a stored heap ID declares (up to
   4 GiB each, twice) before they read a byte of it, wherever the attribute is kept (dense
   storage, shared messages, any offset size), so it is checked first. */
#ifndef FUEL_VLEN_LENGTHS_H
#define FUEL_VLEN_LENGTHS_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sum of the lengths the COUNT variable-length strings of ATTRIBUTE (or of DATASET when
   ATTRIBUTE is negative) declare into *TOTAL, and the longest into *LONGEST: 0, or -1 when HDF5
   cannot read them so (not COUNT variable-length strings, out of memory, unreadable). */
int vlen_lengths_read(hid_t attribute, hid_t dataset, size_t count, uint64_t *total,
                      uint64_t *longest);

/* The stored form of a file with 8-byte addresses: length, collection address, index. */
#define VLEN_HEAP_ID_BYTES 16

/* The stored heap ID of ATTRIBUTE, one variable-length string, into ID: 0, or -1 when HDF5
   cannot read it so (another address size included). */
int vlen_heap_id_read(hid_t attribute, unsigned char id[VLEN_HEAP_ID_BYTES]);

#endif
