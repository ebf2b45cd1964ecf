/* Reads an HDF5 file as Fuel's H5PYDataset sees it: the split array, root attributes, sources. */
#ifndef FUEL_H5PY_READER_H
#define FUEL_H5PY_READER_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest example, fixed-shape or variable-length, that fuel reads. */
#define H5PY_EXAMPLE_MAX_BYTES ((size_t)64 << 20)

enum indices_state {
    INDICES_NONE,     /* null reference: the split is contiguous, [start, stop) */
    INDICES_DATASET,  /* a reference to a dataset of example indices */
    INDICES_DANGLING, /* a non-null reference that resolves to no dataset */
};

/* One row of the `split` attribute, strings without their padding. */
struct h5py_split_row {
    char *split;
    char *source;
    int64_t start;
    int64_t stop;
    bool available;
    char *comment;
    enum indices_state indices;
    char *indices_name;      /* INDICES_DATASET: the dataset's path, without the root's '/' */
    int indices_rank;        /* INDICES_DATASET: its dimensions, element count and type */
    uint64_t indices_length;
    bool indices_integer;
};

/* A source as the file holds it: what the split array names, and the dataset found for it. */
struct h5py_file_source {
    char *name;
    bool present;       /* a dataset of that name exists in the root group */
    char *dtype;        /* numpy's name: uint8, float32, bool, S12, str, ...; for variable-length
                           sources the element type */
    int rank;
    uint64_t *shape;
    char **axis_labels; /* rank entries, "" for an unlabelled dimension */
    size_t axis_label_count; /* the labels the file declares: rank, unless DIMENSION_LABELS
                                holds another count (a violation h5py_check reports) */
    /* Variable-length sources: dimension 0 carries a scale named `shapes` (and `shape_labels`). */
    bool variable_length;
    char *shapes_name;       /* the `shapes` scale dataset */
    bool shapes_int32;       /* stored as int32 (Fuel's Dogs vs Cats) rather than uint16 */
    char *shape_labels_name; /* the `shape_labels` scale dataset; NULL when it is absent */
    uint64_t shapes_rows;    /* its dimensions: examples x example rank */
    uint64_t shapes_columns;
    size_t shape_label_count;
    char **shape_labels;     /* the `shape_labels` scale's strings; none when it is absent */
};

/* A root attribute holding a string (fixed or variable length, scalar or one element). */
struct h5py_attribute {
    char *name;
    char *value;
};

struct h5py_file {
    char *path;
    hid_t handle; /* open read-only while the structure lives, for callers that read data */
    size_t row_count;
    struct h5py_split_row *rows;       /* in file order */
    size_t split_count;
    char **splits;                     /* distinct split names, in order of first appearance */
    size_t source_count;
    struct h5py_file_source *sources;  /* distinct source names, in order of first appearance */
    size_t attribute_count;
    struct h5py_attribute *attributes; /* string root attributes, in HDF5's name order */
};

/* Opens PATH and reads all of the above. EXIT_MISSING_INPUT when PATH does not exist;
   EXIT_CORRUPT_INPUT when it is not HDF5, has no `split` attribute, or the split array is
   malformed. Turns off HDF5's automatic error printing. */
int h5py_reader_open(struct h5py_file **file, const char *path);

/* An object of an S3 store read in place by HDF5's read-only S3 driver (ros3), by ranged GETs of
   the blocks read: LOCATION its http(s) URL (path-style on an endpoint), signed with Signature V4
   by KEY_ID and SECRET in REGION (KEY_ID NULL: anonymous), SIZE its length, SHA256 its digest
   as the store records it (64 hex digits), which stands for its bytes in a provenance. */
struct h5py_remote {
    const char *location;
    const char *region, *key_id, *secret;
    uint64_t size;
    const char *sha256;
};

/* As h5py_reader_open, the file the object REMOTE, named SHOWN (its s3:// URL) in messages and
   as the file's path. EXIT_TRANSFER when the driver cannot open it (HDF5's reason given). */
int h5py_reader_open_remote(struct h5py_file **file, const char *shown,
                            const struct h5py_remote *remote);

/* Closes the file and frees everything; NULL is allowed. */
void h5py_reader_close(struct h5py_file *file);

/* The value of the string root attribute NAME, NULL when there is none. */
const char *h5py_file_attribute(const struct h5py_file *file, const char *name);

/* The value of the string root attribute NAME handed over (caller frees; the file then holds it
   no more, h5py_file_attribute answers NULL), NULL when there is none. */
char *h5py_file_attribute_take(struct h5py_file *file, const char *name);

/* The source named NAME, NULL when the split array does not name it. */
const struct h5py_file_source *h5py_file_source(const struct h5py_file *file, const char *name);

/* The number of examples a row selects: the indices dataset's length, stop - start for a
   contiguous row (0 when stop < start), 0 when unavailable or dangling. */
uint64_t h5py_split_row_count(const struct h5py_split_row *row);

#endif
