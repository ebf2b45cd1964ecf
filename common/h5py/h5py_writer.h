/* Writes one HDF5 file laid out as Fuel's H5PYDataset interface 0.3 (fuel-convert(1)): a
   contiguous dataset per source in the root group, the `split` attribute, axis labels as
   dimension-scale labels. */
#ifndef FUEL_H5PY_WRITER_H
#define FUEL_H5PY_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define H5PY_MAX_RANK 8

/* numpy's numeric dtypes, its bool and its fixed-length byte strings, as h5py stores them. */
enum element_type {
    ELEMENT_UINT8,
    ELEMENT_UINT16,
    ELEMENT_INT64,
    ELEMENT_FLOAT32,
    ELEMENT_FLOAT64,
    ELEMENT_BOOL, /* stored as h5py stores numpy bool: enum over int8, FALSE=0, TRUE=1 */
    ELEMENT_INT8,
    ELEMENT_INT16,
    ELEMENT_INT32,
    ELEMENT_UINT32,
    ELEMENT_UINT64,
    ELEMENT_STRING, /* numpy S<n>: n bytes, null-padded (the declaration's string_length) */
};

/* Size in bytes of one element of TYPE in memory (ELEMENT_BOOL is one byte, 0 or 1); 0 for
   ELEMENT_STRING, whose size its declaration gives. */
size_t element_size(enum element_type type);

/* numpy's name of TYPE ("uint8", "bool"; "S" for strings). */
const char *element_type_dtype(enum element_type type);

/* The element type numpy's DTYPE names ("int16", "float32", "bool"); false when none does
   (strings, whose length varies, included). */
bool element_type_from_dtype(const char *dtype, enum element_type *type);

/* A source as a converter declares it, before its first row is written. */
struct h5py_source_declaration {
    const char *name;
    enum element_type type;
    /* Fixed-shape sources: the dataset's dimensions, the example axis first; shape[0] counts the
       examples of all splits. Variable-length sources: rank is 1 and shape[0] the example count. */
    int rank;
    uint64_t shape[H5PY_MAX_RANK];
    const char *axis_labels[H5PY_MAX_RANK]; /* one per dimension, "batch" first */
    /* Variable-length sources: each example is a flattened array of example_rank dimensions,
       named by shape_labels; written as NAME_shapes and NAME_vlen_axis_labels scales. An
       example_rank of 0: each example is 1-D bytes with no scales (Fuel's ILSVRC
       encoded_images), written with h5py_writer_write_sequences_at. */
    bool variable_length;
    int example_rank;
    const char *shape_labels[H5PY_MAX_RANK];
    size_t string_length; /* ELEMENT_STRING: the bytes of each string (numpy S<n>), 1 or more */
    /* A dataset of the root group that is no source (a split's indices, class names): written as
       sources are, but no split row names it and h5py_writer_add_split never covers it. */
    bool auxiliary;
    /* Variable-length sources: Fuel's SVHN converter writes NAME_shapes as uint16 and the labels
       scale as NAME_vlen_axis_labels; its Dogs vs Cats converter writes int32 shapes and
       NAME_shapes_labels, its chapter 4 ("Variable-length data") int32 shapes and
       NAME_shape_labels. Readers find all through the scales' names. */
    bool int32_shapes;
    const char *shape_labels_dataset; /* the labels scale's dataset name; NULL: NAME_vlen_axis_labels */
};

struct h5py_attributes {
    const char *command;         /* fuel_convert_command */
    const char *version;         /* fuel_convert_version */
    const char *provenance_json; /* fuel_provenance; NULL leaves it out */
    const char *card_json;       /* fuel_card, the dataset's card; NULL leaves it out */
};

struct h5py_writer;

/* Creates PATH, truncating it, with object time tracking off (byte-identical reruns). */
int h5py_writer_create(struct h5py_writer **writer, const char *path);

/* The PATH the writer was created with. */
const char *h5py_writer_path(const struct h5py_writer *writer);

/* Whether a source named NAME was declared. */
bool h5py_writer_has_source(const struct h5py_writer *writer, const char *name);

/* Declares a source and creates its contiguous, uncompressed dataset; *index names it below. */
int h5py_writer_add_source(struct h5py_writer *writer,
                           const struct h5py_source_declaration *source, int *index);

/* Writes COUNT examples from FIRST of a fixed-shape source; DATA holds COUNT whole examples,
   row-major, in the source's element type. */
int h5py_writer_write(struct h5py_writer *writer, int source, uint64_t first, uint64_t count,
                      const void *data);

/* Writes COUNT examples from FIRST of a fixed-shape source whose rows, as stored (little-endian
   elements, numpy's bool as 0 or 1), are at OFFSET in the file open as INPUT: copied there by the
   kernel (copy_file_range) when the writer's file allows it, else read and written by blocks.
   EXIT_CORRUPT_INPUT when INPUT ends first. */
int h5py_writer_copy(struct h5py_writer *writer, int source, uint64_t first, uint64_t count,
                     int input, uint64_t offset);

/* Writes example INDEX of a variable-length source: product(SHAPE) elements of DATA, and SHAPE
   (example_rank values) into the shapes scale. */
int h5py_writer_write_variable(struct h5py_writer *writer, int source, uint64_t index,
                               const void *data, const uint16_t *shape);

/* As h5py_writer_write_variable, the shape given as 32-bit values: each at most 65535, or
   2^31 - 1 for a source declared with int32_shapes. */
int h5py_writer_write_variable_wide(struct h5py_writer *writer, int source, uint64_t index,
                                    const void *data, const uint32_t *shape);

/* Writes COUNT rows of a fixed-shape source at the rows ROWS[0..COUNT) (any order, no row twice):
   DATA holds COUNT whole rows, row-major, the I-th going to ROWS[I]. One H5Dwrite of a point
   selection, so scattered rows cost one call per batch. */
int h5py_writer_write_rows_at(struct h5py_writer *writer, int source, const uint64_t *rows,
                              size_t count, const void *data);

/* Writes COUNT examples of a variable-length source of example_rank 0 at EXAMPLES[0..COUNT) (any
   order, no example twice): the I-th is LENGTHS[I] elements at DATA[I]. One H5Dwrite of a point
   selection: the elements go to the file's heap in the order given, only the small references
   land at the examples' places. */
int h5py_writer_write_sequences_at(struct h5py_writer *writer, int source,
                                   const uint64_t *examples, size_t count,
                                   const void *const *data, const size_t *lengths);

/* Declares that examples [START, STOP) of SOURCE (NULL: every source declared so far) belong to
   SPLIT. Split rows are written in the order splits were first declared, sources sorted by name;
   (split, source) pairs never declared are written unavailable with start = stop = 0. */
int h5py_writer_add_split(struct h5py_writer *writer, const char *split, const char *source,
                          uint64_t start, uint64_t stop);

/* Declares that the examples of SOURCE (NULL: every source declared so far) listed by the
   auxiliary dataset INDICES (a 1-D integer dataset) belong to SPLIT, as Fuel's chapter 4
   ("Non-contiguous splits") does: the row's `indices` references INDICES, start = stop = -1. */
int h5py_writer_add_split_indices(struct h5py_writer *writer, const char *split,
                                  const char *source, int indices);

/* Gives the rows of SPLIT declared so far for SOURCE (NULL: every source) the comment COMMENT
   (not empty) instead of Fuel's '.'; the `comment` field is as long as the longest comment. */
int h5py_writer_comment_split(struct h5py_writer *writer, const char *split, const char *source,
                              const char *comment);

/* Writes the split attribute and the root attributes, then closes the file. The writer is freed
   whatever the result. */
int h5py_writer_finish(struct h5py_writer *writer, const struct h5py_attributes *attributes);

/* Closes and frees after a failure; the caller removes the file. */
void h5py_writer_discard(struct h5py_writer *writer);

/* Empties the file to start again: every source and split declared is gone. */
int h5py_writer_restart(struct h5py_writer *writer);

#endif
