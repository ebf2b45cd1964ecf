/* The readers of fuel pack's `from` entries, one per kind, behind one interface: a probe that
   learns an input's examples before anything is written, then its examples in blocks. */
#ifndef FUEL_PACK_INPUT_H
#define FUEL_PACK_INPUT_H

#include "common/h5py/provenance.h"
#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Blocks hold about this many bytes of examples (at least one example). */
#define INPUT_BLOCK_BYTES (4u << 20)

/* What a probe learns of an input. */
struct input_facts {
    enum element_type type; /* the stored elements, as numpy names them */
    uint64_t examples;
    int example_rank;
    bool ragged; /* the examples' shapes differ; example_shape is then the first one's */
    uint64_t example_shape[H5PY_MAX_RANK];
    uint64_t largest_example; /* image folders: the elements of the largest image */
    uint64_t largest_decoding; /* image folders: the most bytes decoding one image holds */
    /* The files the input reads, for the provenance: paths and names relative to the spec's
       directory (a folder's images), both malloc'd; the probe appends to them. */
    char **files;
    char **file_names;
    size_t file_count;
    size_t *provenance_indices; /* set by the plan: each file's place among the provenance's */
    char **class_names; /* INPUT_CLASSES: the sorted subfolders, class i the i-th */
    size_t class_count;
};

/* A block of examples: COUNT of them at DATA, each as the facts' type in this machine's byte
   order, one after another; SHAPES, when not NULL, holds example_rank sides per example (ragged
   inputs), else every example has the facts' example_shape. */
struct example_block {
    const void *data;
    uint64_t count;
    const uint32_t *shapes;
};

/* What a reader is given besides its spec entry. */
struct input_context {
    const struct pack_spec *spec;
    const struct pack_source *source; /* whose `from` holds the entry (CSV columns) */
    unsigned threads;                 /* decoding threads for images, at least 1 */
    struct provenance *provenance;    /* takes an image folder's bytes as they are read */
};

struct input_reader;

struct input_kind_reader {
    /* Learns FACTS of INPUT without reading all its data when it can. EXIT_MISSING_INPUT when it
       is not there, EXIT_CORRUPT_INPUT when it is not what its kind says. */
    int (*probe)(const struct input_context *context, const struct pack_input *input,
                 struct input_facts *facts);
    /* Opens INPUT for reading its examples, which must agree with FACTS (its probe's). */
    int (*open)(const struct input_context *context, const struct pack_input *input,
                const struct input_facts *facts, struct input_reader **reader);
    /* The next block; COUNT 0 at the end. Valid until the next call. */
    int (*next)(struct input_reader *reader, struct example_block *block);
    void (*close)(struct input_reader *reader);
    /* Whether the examples not yet read are stored as the writer stores them (C order,
       little-endian, not bool), from *OFFSET in the file open as *DESCRIPTOR, for the writer to
       copy them in the kernel; NULL when the kind never has them so. */
    bool (*stored)(struct input_reader *reader, int *descriptor, uint64_t *offset);
};

/* The reader of KIND's entries. */
const struct input_kind_reader *input_kind_reader(enum input_kind kind);

/* Appends PATH and its NAME (relative to the spec's directory) to FACTS' files. */
int input_facts_add_file(struct input_facts *facts, const char *path, const char *name);

/* NAME relative to SPEC's directory when below it, else PATH itself (a malloc'd copy). */
char *input_relative_name(const struct pack_spec *spec, const char *path);

/* Frees the facts' file lists (paths, names, provenance places), leaving the rest. */
void input_facts_files_free(struct input_facts *facts);

void input_facts_free(struct input_facts *facts);

/* The element type of a .npy's dtype (kind 'b', 'i', 'u', 'f' and item size). */
bool input_npy_type(char kind, unsigned item_size, enum element_type *type);

/* "cannot read input: PATH[:MEMBER]: why" with CODE. */
int input_error(int code, const struct pack_input *input, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
