/* Reads a source's elements in canonical form (little-endian, C order) in blocks of bounded size,
   for content digests and comparisons: a fixed-shape source as hyperslabs along its first axis
   (split along later axes when one example is larger than a block), a variable-length source one
   example at a time. */
#ifndef FUEL_CONTENT_BLOCKS_H
#define FUEL_CONTENT_BLOCKS_H

#include "h5py_reader.h"
#include "h5py_vlen_examples.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes one block holds (unless a single element is larger). */
#define CONTENT_BLOCK_BYTES ((size_t)4 << 20)

/* The memory type whose bytes are an element of STORED in canonical form: integers, floats,
   bitfields and enums little-endian at their stored size, fixed-length strings as stored; -1 for
   any other class (variable-length strings, compounds, references, opaque, arrays). */
hid_t content_canonical_type(hid_t stored);

/* Walks a box of RANK dimensions in C order, in hyperslabs of at most BUDGET bytes: whole runs of
   the first axis when one index of it fits, else one index of the leading axes at a time and a
   run of the first axis whose tail fits. */
struct content_walk {
    int rank;
    uint64_t shape[H5S_MAX_RANK];
    uint64_t origin;                  /* added to the first axis' positions */
    int axis;                         /* the axis the blocks run along */
    uint64_t step;                    /* indices of AXIS per block */
    uint64_t position[H5S_MAX_RANK];  /* the next block's start, axes up to AXIS */
    bool done;
};

void content_walk_begin(struct content_walk *walk, int rank, const uint64_t *shape,
                        uint64_t origin, size_t element_size, size_t budget);

/* The next hyperslab (START and COUNT of RANK entries); false once the box is covered. */
bool content_walk_next(struct content_walk *walk, hsize_t *start, hsize_t *count);

/* A fixed-shape source opened for canonical reads. */
struct content_source {
    const char *name;
    hid_t dataset;
    hid_t memory_type;      /* content_canonical_type of the stored type */
    int rank;
    uint64_t shape[H5S_MAX_RANK];
    size_t element_size;
    size_t example_bytes;   /* one index of the first axis; SIZE_MAX when it does not fit */
    unsigned char *buffer;  /* CONTENT_BLOCK_BYTES, or one element when that is larger */
    size_t buffer_size;
};

/* Opens the fixed-shape source NAME of FILE. EXIT_MISSING_INPUT when there is no such dataset,
   EXIT_USAGE when its type has no canonical form, EXIT_CORRUPT_INPUT when it cannot be read. */
int content_source_open(struct content_source *source, const struct h5py_file *file,
                        const char *name);

/* The same, read as MEMORY_TYPE (e.g. H5T_STD_I64LE for split indices) whatever the stored type. */
int content_source_open_as(struct content_source *source, const struct h5py_file *file,
                           const char *name, hid_t memory_type);

void content_source_close(struct content_source *source);

/* Reads the hyperslab START, COUNT into the source's buffer in canonical form; *BYTES is its
   size. */
int content_source_read(struct content_source *source, const hsize_t *start, const hsize_t *count,
                        size_t *bytes);

/* Converts COUNT elements at DATA from the native BASE type (as h5py_vlen_examples_read returns
   them) to canonical form in place. */
int content_elements_canonical(hid_t base_type, void *data, size_t count);

/* Example INDEX of a variable-length source: its shape (example_rank values) and its elements in
   canonical form (*DATA malloc'd, *COUNT elements). */
int content_vlen_example(const struct h5py_vlen_examples *examples, uint64_t index,
                         uint64_t shape[H5PY_VLEN_MAX_RANK], void **data, size_t *count);

#endif
