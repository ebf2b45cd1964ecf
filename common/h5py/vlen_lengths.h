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
   cannot read them so (not variable-length strings, out of memory, unreadable). */
int vlen_lengths_read(hid_t attribute, hid_t dataset, size_t count, uint64_t *total,
                      uint64_t *longest);

#endif
