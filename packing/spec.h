/* fuel pack's spec: a YAML file naming the output, its splits and its sources, each source's
   inputs (`from`), axes, dtype and comment (fuel-pack(1)). */
#ifndef FUEL_PACK_SPEC_H
#define FUEL_PACK_SPEC_H

#include "common/h5py/h5py_writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds a hostile spec cannot push: its bytes, splits, sources, inputs, columns. */
#define PACK_SPEC_MAX_BYTES (1u << 20)
#define PACK_MAX_SPLITS 64
#define PACK_MAX_SOURCES 64
#define PACK_MAX_INPUTS 1024
#define PACK_MAX_COLUMNS 4096
/* Checked before libyaml loads the spec (its loader is worse than quadratic in the depth): a spec
   nests about 6 deep, and the bounds above allow no more than some 200,000 nodes of use. */
#define PACK_SPEC_MAX_DEPTH 64
#define PACK_SPEC_MAX_NODES (1u << 18)

/* How a split picks its examples of each source. */
enum split_kind {
    SPLIT_EXAMPLES, /* the next N examples, after those of the splits before it */
    SPLIT_ROWS,     /* examples START..STOP */
    SPLIT_INDICES,  /* the examples a .npy of indices lists (Fuel's non-contiguous splits) */
};

struct pack_split {
    char *name;
    enum split_kind kind;
    uint64_t examples;    /* SPLIT_EXAMPLES */
    uint64_t start, stop; /* SPLIT_ROWS */
    char *indices;        /* SPLIT_INDICES: the .npy's path, the spec's directory prepended */
    char *comment;        /* NULL when none */
    size_t line;
};

/* The kinds of `from` entries. */
enum input_kind {
    INPUT_NPY,     /* FILE.npy */
    INPUT_NPZ,     /* FILE.npz:MEMBER */
    INPUT_CSV,     /* FILE.csv */
    INPUT_TSV,     /* FILE.tsv */
    INPUT_HDF5,    /* FILE.h5:/path/to/dataset (.hdf5, .hdf too) */
    INPUT_IMAGES,  /* {images: DIR} */
    INPUT_CLASSES, /* {classes: DIR} */
    INPUT_ARRAYS,  /* {arrays: DIR} */
};

struct pack_input {
    enum input_kind kind;
    char *path;   /* the file or directory, the spec's directory prepended when relative */
    char *member; /* INPUT_NPZ: the member (NAME or NAME.npy); INPUT_HDF5: the dataset's path */
    char *shown;  /* the entry as the spec writes it, for messages */
    size_t line;
};

struct pack_source {
    char *name;
    char **axes; /* NULL when the spec gives none */
    size_t axis_count;
    struct pack_input *inputs;
    size_t input_count;
    bool available[PACK_MAX_SPLITS]; /* per split: every one unless `splits:` lists some */
    bool has_dtype;
    enum element_type dtype;
    bool has_scale;
    double scale;
    char *comment;
    char **columns; /* CSV and TSV inputs: the header's columns to keep, in this order */
    size_t column_count;
    size_t line;
};

struct pack_spec {
    char *path;      /* as given */
    char *directory; /* where relative paths start */
    char *text;      /* the whole spec, for the provenance */
    size_t length;
    char *name; /* the output's name, without .hdf5; the spec's file name when not given */
    struct pack_split splits[PACK_MAX_SPLITS];
    size_t split_count;
    struct pack_source sources[PACK_MAX_SOURCES];
    size_t source_count;
};

/* Reads the spec at PATH. EXIT_MISSING_INPUT when it cannot be read; EXIT_USAGE, "malformed
   spec: PATH:LINE: why" (an unknown key names the closest valid one), when it is not a spec. */
int pack_spec_read(const char *path, struct pack_spec **spec);

void pack_spec_free(struct pack_spec *spec);

/* The index of the split called NAME in SPEC; SPEC->split_count when none. */
size_t pack_spec_split_index(const struct pack_spec *spec, const char *name);

#endif
