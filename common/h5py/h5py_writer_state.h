/* The h5py writer's state and what its files share: h5py_writer.c (the file and its sources),
   h5py_writer_rows.c (blocks of rows), h5py_writer_splits.c (the split attribute),
   h5py_writer_split_extras.c (indices and comments of split rows), h5py_writer_copy.c (rows
   copied from another file), h5py_writer_types.c
   (datatypes) and hdf5_failure.c (HDF5's reasons for a failure). */
#ifndef FUEL_H5PY_WRITER_STATE_H
#define FUEL_H5PY_WRITER_STATE_H

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
    uint32_t *shapes;       /* variable-length sources: count x example_rank */
};

struct writer_source {
    char *name;
    enum element_type type;
    size_t element_bytes; /* one element's size (a string's length for ELEMENT_STRING) */
    int rank;
    uint64_t shape[H5PY_MAX_RANK];
    bool variable_length;
    int example_rank;
    bool int32_shapes; /* variable-length sources: NAME_shapes int32, not uint16 */
    bool auxiliary;
    size_t row_bytes; /* fixed-shape sources: bytes of one example */
    hid_t dataset;
    hid_t shapes_dataset;
    hid_t memory_type;
    struct pending_block block;
};

struct split_declaration {
    size_t split;
    size_t source;
    int64_t start;
    int64_t stop;
    int indices;   /* the auxiliary dataset of the row's indices; -1 when contiguous */
    char *comment; /* NULL: Fuel's '.' */
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
    /* The transfer lists of variable-length writes: H5Dwrite zeroes its conversion buffer (1 MiB
       by default) twice on every call, and a Dogs vs Cats photo is one call. TRANSFER's buffer
       holds a block's sequences, TRANSFER_ONE's one sequence. */
    hid_t transfer;
    hid_t transfer_one;
};

/* The conversion buffers of the transfer lists above: 4,096 sequences, or 64 of them. */
enum { TRANSFER_BLOCK_BYTES = 64 << 10, TRANSFER_ONE_BYTES = 1 << 10 };

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

/* The number of the split named SPLIT, registered when new (splits keep their first order). */
int h5py_writer_split_number(struct h5py_writer *writer, const char *split, size_t *number);

/* The source named NAME (*FOUND = source_count when NULL, meaning every source); EXIT_OTHER when
   no source has that name. */
int h5py_writer_source_named(const struct h5py_writer *writer, const char *split,
                             const char *name, size_t *found);

/* The declaration of (SPLIT, SOURCE); NULL when there is none. */
struct split_declaration *h5py_writer_declaration(const struct h5py_writer *writer, size_t split,
                                                 size_t source);

/* Records DECLARATION (its split and source numbers set), refused when its pair already has one. */
int h5py_writer_declare(struct h5py_writer *writer, const struct split_declaration *declaration);

/* Writes the split attribute: a row per (split, source), splits in declaration order, sources by
   name; pairs never declared unavailable. */
int h5py_writer_write_splits(struct h5py_writer *writer);

#endif
