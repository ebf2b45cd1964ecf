/* A .npy file opened for reading examples: its header checked against its size, examples read
   by blocks in C order whatever the file's order, in this machine's byte order. */
#ifndef FUEL_PACK_NPY_FILE_H
#define FUEL_PACK_NPY_FILE_H

#include "common/formats/npy/npy.h"
#include "common/h5py/h5py_writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct npy_file {
    int descriptor;
    const char *path;
    struct npy_array array;
    enum element_type type;
    uint64_t example_elements; /* the product of the shape past the first axis */
    unsigned char *column;     /* Fortran order: one run of the first axis, reused */
    size_t column_capacity;
};

/* Opens PATH (EXIT_MISSING_INPUT when it is not there) and reads its header: EXIT_CORRUPT_INPUT
   for a header npy_header_parse refuses, a 0-d array, or data the file is too short to hold
   ("truncated array"). */
int npy_file_open(struct npy_file *file, const char *path);

/* As npy_file_open on an open DESCRIPTOR (kept: npy_file_close closes it), named PATH. */
int npy_file_open_descriptor(struct npy_file *file, int descriptor, const char *path);

/* Reads examples FIRST to FIRST + COUNT into OUTPUT (COUNT * example_elements elements of the
   file's item size), C order, native byte order. EXIT_CORRUPT_INPUT when the file shrank. */
int npy_file_read(struct npy_file *file, uint64_t first, uint64_t count, void *output);

void npy_file_close(struct npy_file *file);

#endif
