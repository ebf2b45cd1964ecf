/* The invariants of Fuel's H5PYDataset interface, checked on an open file, one line per violation. */
#ifndef FUEL_H5PY_CHECK_H
#define FUEL_H5PY_CHECK_H

#include "h5py_reader.h"

#include <stdbool.h>
#include <stddef.h>

struct h5py_violations {
    char **lines;
    size_t count;
};

/* Checks FILE (its handle open, as h5py_reader_open leaves it): one split row per (split, source)
   pair, every source of the split attribute present, spans inside each source's length, equal
   lengths within a split, `indices` references resolving to 1-D integer datasets whose values
   are in range, one axis label per dimension, examples of at most H5PY_EXAMPLE_MAX_BYTES,
   contiguous data stored whole (not fewer bytes allocated than its shape declares), and vlen
   sources whose `shapes` scale has a row per example and whose element counts equal the product
   of those shapes. Appends one line per violation to VIOLATIONS (which starts zeroed). EXIT_OK
   whatever was found; EXIT_OTHER when memory runs out. */
int h5py_check(const struct h5py_file *file, struct h5py_violations *violations);

/* The same checks but the element counts of variable-length examples, whose reading costs as much
   as reading every example: the readers compare each example with its shape as they read it. */
int h5py_check_structure(const struct h5py_file *file, struct h5py_violations *violations);

void h5py_violations_free(struct h5py_violations *violations);

/* Whether PATH opens as an H5PYDataset file and breaks none of the invariants above; leaves no
   error behind. */
bool h5py_file_passes_check(const char *path);

#endif
