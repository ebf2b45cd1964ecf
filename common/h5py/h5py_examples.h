/* Reads the examples of one fixed-shape source of an H5PYDataset file: a split's selection,
   contiguous ranges and index lists (read in sorted runs), in the stored element type. */
#ifndef FUEL_H5PY_EXAMPLES_H
#define FUEL_H5PY_EXAMPLES_H

#include "h5py_reader.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define H5PY_EXAMPLES_MAX_RANK 32

struct h5py_examples {
    const char *source;
    hid_t dataset;
    hid_t memory_type;  /* the native form of the stored type (bool enums stay an int8 enum) */
    int rank;           /* of the dataset; the example axis is dimension 0 */
    uint64_t shape[H5PY_EXAMPLES_MAX_RANK];
    size_t element_size;
    size_t example_bytes; /* element_size times the product of shape[1..rank) */
    char descr[8];        /* numpy's dtype string: "|u1", "<f4", "|b1", ... */
    bool is_bool;
    bool is_float;
    bool is_string;       /* h5py_examples_open_strings: fixed-length byte strings, "|S<n>" */
};

/* Opens SOURCE of FILE. EXIT_MISSING_INPUT when the file has no dataset SOURCE; EXIT_USAGE when
   the source is variable-length (its examples have no common shape) or not numeric. */
int h5py_examples_open(struct h5py_examples *examples, const struct h5py_file *file,
                       const char *source);

/* The same, also opening sources of fixed-length byte strings (numpy S<n>, such as ImageNet's
   filenames), read as stored, NUL-padded. */
int h5py_examples_open_strings(struct h5py_examples *examples, const struct h5py_file *file,
                               const char *source);

void h5py_examples_close(struct h5py_examples *examples);

/* Reads examples [FIRST, FIRST + COUNT) into BUFFER (COUNT * example_bytes bytes). */
int h5py_examples_read(const struct h5py_examples *examples, uint64_t first, uint64_t count,
                       void *buffer);

/* An index and the place in the caller's order it goes to. */
struct placed_index {
    uint64_t index;
    size_t position;
};

/* INDICES[0..COUNT) with their positions, sorted by index (malloc'd); NULL when out of memory. */
struct placed_index *placed_indices_sorted(const uint64_t *indices, size_t count);

/* Reads examples INDICES[0..COUNT) into BUFFER in that order; indices may come in any order and
   repeat: they are read in sorted runs of consecutive examples, then put back in order. */
int h5py_examples_read_indices(const struct h5py_examples *examples, const uint64_t *indices,
                               size_t count, void *buffer);

/* The examples of a split for one source: [start, stop), or an explicit list of indices. */
struct h5py_selection {
    uint64_t start;
    uint64_t stop;
    uint64_t *indices; /* non-NULL when the split row names an indices dataset */
    uint64_t count;    /* examples selected */
};

/* The selection of SPLIT for SOURCE in FILE. EXIT_USAGE when FILE has no such split, or the
   pair is unavailable; EXIT_CORRUPT_INPUT when the row's indices cannot be read or point past
   the source's examples. */
int h5py_selection_find(struct h5py_selection *selection, const struct h5py_file *file,
                        const char *split, const char *source);

/* The index in the source of the selection's example NUMBER (< count). */
uint64_t h5py_selection_example(const struct h5py_selection *selection, uint64_t number);

void h5py_selection_free(struct h5py_selection *selection);

/* As h5py_examples_open, fixed-length byte strings (numpy S<n>) accepted too, read as stored:
   for callers that copy examples without reading them as numbers (fixture --from). */
int h5py_examples_open_strings(struct h5py_examples *examples, const struct h5py_file *file,
                               const char *source);

#endif
