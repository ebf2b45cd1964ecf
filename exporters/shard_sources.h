/* The sources a shard export writes and what each becomes: uint8 images as PNG, stored JPEG bytes
   as they are, an integer class label, any other numeric source as an array. */
#ifndef FUEL_SHARD_SOURCES_H
#define FUEL_SHARD_SOURCES_H

#include "common/h5py/class_names.h"
#include "example_source.h"
#include "export_driver.h"
#include "image.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum shard_role {
    SHARD_PNG,   /* uint8 examples with (channel,) height, width axes, 1 or 3 channels */
    SHARD_JPEG,  /* variable-length uint8 without shape axes whose examples start FF D8 FF */
    SHARD_LABEL, /* the label source: one integer per example */
    SHARD_ARRAY, /* any other fixed-shape source: numbers, or fixed-length byte strings */
};

struct shard_source {
    struct example_source source;
    enum shard_role role;
    bool primary;            /* the image written as KEY.png / KEY.jpg, image/encoded */
    bool present;            /* the split being written holds it */
    char descr[8];           /* numpy's dtype string: "|u1", "<f4" */
    struct image_axes axes;  /* SHARD_PNG */
};

struct shard_sources {
    struct shard_source *items;
    size_t count;
    bool named; /* chosen with --source (else every source of the file) */
    struct class_names classes; /* the label source's class names, count 0 when unnamed */
};

/* Opens the sources REQUEST names (--source, or every source of FILE, with --data and --label
   added when not among them) and gives each its role. EXIT_USAGE naming the source and FORM when
   one cannot be written: neither numbers nor fixed-length strings, variable-length but neither images nor encoded JPEGs, a
   --label without one integer per example, a --data that is not an image. */
int shard_sources_open(struct shard_sources *sources, const struct h5py_file *file,
                       const struct export_request *request, const char *form);

/* Selects SPLIT in every source (without --source, the sources the split lacks are left out of
   it) and sets *EXAMPLES. EXIT_CORRUPT_INPUT when the sources' counts differ; with CHECK, also
   EXIT_USAGE when an encoded-image source's first example of the split is not a JPEG. */
int shard_sources_select(struct shard_sources *sources, const struct h5py_file *file,
                         const char *split, bool check, uint64_t *examples);

/* numpy's name of a dtype string: "|u1" uint8, "<f4" float32, "|b1" bool, "|S32" S32. */
void shard_dtype_name(const char *descr, char *name, size_t size);

void shard_sources_close(struct shard_sources *sources);

#endif
