/* Reads the examples of one variable-length source of an H5PYDataset file (SVHN format 1's
   images and boxes): each example's shape from the `shapes` scale, and its flattened elements. */
#ifndef FUEL_H5PY_VLEN_EXAMPLES_H
#define FUEL_H5PY_VLEN_EXAMPLES_H

#include "h5py_reader.h"
#include "h5py_vlen_direct.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define H5PY_VLEN_MAX_RANK 8
/* An example of more bytes than this is refused before it is read. */
#define H5PY_VLEN_MAX_BYTES H5PY_EXAMPLE_MAX_BYTES

struct h5py_vlen_examples {
    const char *source;
    hid_t dataset;
    hid_t shapes;       /* the `shapes` scale: examples x example_rank, -1 when absent */
    hid_t memory_type;  /* vlen of the native base type */
    hid_t base_type;
    uint64_t count;     /* examples stored */
    int example_rank;   /* columns of `shapes`; 1 when there is no scale */
    size_t element_size;
    bool is_float;
    bool is_bool;
    struct h5py_vlen_direct direct; /* examples of bytes read straight from the file */
};

/* Opens the variable-length SOURCE of FILE. EXIT_MISSING_INPUT when there is no such dataset;
   EXIT_USAGE when it is not variable-length or its elements are not numbers. */
int h5py_vlen_examples_open(struct h5py_vlen_examples *examples, const struct h5py_file *file,
                            const char *source);

void h5py_vlen_examples_close(struct h5py_vlen_examples *examples);

/* The shape of example INDEX (example_rank values); without a `shapes` scale, its length. */
int h5py_vlen_examples_shape(const struct h5py_vlen_examples *examples, uint64_t index,
                             uint64_t shape[H5PY_VLEN_MAX_RANK]);

/* Reads example INDEX into *DATA (malloc'd, the caller frees) of *COUNT elements in the native
   base type. EXIT_CORRUPT_INPUT when it exceeds H5PY_VLEN_MAX_BYTES or cannot be read. */
int h5py_vlen_examples_read(const struct h5py_vlen_examples *examples, uint64_t index,
                            void **data, size_t *count);

#endif
