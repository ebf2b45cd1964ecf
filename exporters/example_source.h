/* One source of an H5PYDataset file, fixed-shape or variable-length, read through one split's
   selection: example NUMBER of the split is example selection[NUMBER] of the source. */
#ifndef FUEL_EXAMPLE_SOURCE_H
#define FUEL_EXAMPLE_SOURCE_H

#include "common/h5py/h5py_examples.h"
#include "common/h5py/h5py_reader.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "element_display.h"

#include <stdbool.h>
#include <stdint.h>

struct example_source {
    const char *name;
    const struct h5py_file_source *facts; /* axis labels, shape labels */
    bool variable;
    /* Variable-length uint8 examples without a shapes scale: each an image file's bytes as
       stored (Fuel's ILSVRC encoded_images), passed through or decoded, never read as pixels. */
    bool encoded;
    struct h5py_examples fixed;
    struct h5py_vlen_examples vlen;
    struct numeric_type type;
    struct h5py_selection selection;
    size_t example_elements; /* fixed sources: elements per example */
};

/* An unopened source, which example_source_close accepts. */
void example_source_init(struct example_source *source);

/* Opens source NAME of FILE. EXIT_USAGE naming the sources there when FILE has none of that name. */
int example_source_open(struct example_source *source, const struct h5py_file *file,
                        const char *name);

/* The same, also opening sources of fixed-length byte strings (type kind 'S', size the string's
   length). */
int example_source_open_strings(struct example_source *source, const struct h5py_file *file,
                                const char *name);
/* The image source a command reads when none is named: features, or encoded_images in a file
   that has no features but has it. */
const char *example_source_default(const struct h5py_file *file);

/* Selects SPLIT (EXIT_USAGE when the split does not hold the source). */
int example_source_select(struct example_source *source, const struct h5py_file *file,
                          const char *split);

/* Fixed sources: the split's examples [FIRST, FIRST + COUNT) into BUFFER. */
int example_source_read(const struct example_source *source, uint64_t first, uint64_t count,
                        void *buffer);

/* Any source: the split's example NUMBER into *DATA (malloc'd), its shape into SHAPE (the
   example's axes, without the batch axis) and *RANK. */
int example_source_read_one(const struct example_source *source, uint64_t number, void **data,
                            uint64_t shape[H5PY_VLEN_MAX_RANK], int *rank);

/* The labels of the example's axes (fixed: axis labels past `batch`; variable: shape labels). */
const char *example_source_axis_label(const struct example_source *source, int axis);

void example_source_close(struct example_source *source);

#endif
