/* The h5py writer's state and what its files share: h5py_writer.c (the file and its sources),
   h5py_writer_rows.c (blocks of rows), h5py_writer_splits.c (the split attribute),
   h5py_writer_types.c (datatypes) and h5py_writer_failure.c (HDF5's reasons for a failure). */
#ifndef FUEL_H5PY_WRITER_PARTS_H
#define FUEL_H5PY_WRITER_PARTS_H

#include "h5py_writer.h"
#include "hdf5_failure.h"
#include "hdf5_write_behind.h"

#include <hdf5.h>

/* Rows are gathered into blocks of at most this many bytes (and, for variable-length sources,
   this many examples) before one H5Dwrite, so per-example calls stay cheap. */
enum { BLOCK_BYTES = 4 << 20, BLOCK_EXAMPLES = 4096, METADATA_CACHE_BYTES = 4 << 20 };

struct pending_block {
    uint64_t first;
    uint64_t count;
    unsigned char *data;
    size_t used;
    size_t capacity;
    size_t *element_counts; /* variable-length sources: elements of each example */
    uint16_t *shapes;       /* variable-length sources: count x example_rank */
};

struct writer_source {
    char *name;
    enum element_type type;
    size_t element_bytes; /* one element's size (a string's length for ELEMENT_STRING) */
    int rank;
    uint64_t shape[H5PY_MAX_RANK];
    bool variable_length;
    int example_rank;
    size_t row_bytes; /* fixed-shape sources: bytes of one example */
    hid_t dataset;
    hid_t shapes_dataset;
    hid_t memory_type;
    struct pending_block block;
};

struct split_declaration {
    size_t split;
    size_t source;
    uint64_t start;
    uint64_t stop;
};

struct h5py_writer {
    char *path;
    hid_t file;
    struct writer_source *sources;
    size_t source_count;
    char **split_names;
    size_t split_count;
    struct split_declaration *declarations;
    size_t declaration_count;
    struct write_behind behind;
};

/* numpy's bool as h5py stores it: an enum over BASE, an 8-bit integer, FALSE = 0 and TRUE = 1. */
hid_t h5py_bool_type(hid_t base);

/* The element type as stored (little-endian standard types) or in memory (native types). */
hid_t h5py_element_type(enum element_type type, size_t element_bytes, bool in_memory);

/* A null-padded fixed string type of LENGTH bytes. */
hid_t h5py_fixed_string_type(size_t length);

/* The length of the longest of the COUNT TEXTS (NULL ones left out), at least 1. */
size_t h5py_longest_text(const char *const *texts, size_t count);

/* Writes the rows pending in SOURCE's block. */
int h5py_writer_flush(struct h5py_writer *writer, struct writer_source *source);

/* Writes the split attribute: a row per (split, source), splits in declaration order, sources by
   name; pairs never declared unavailable. */
int h5py_writer_write_splits(struct h5py_writer *writer);

#endif
