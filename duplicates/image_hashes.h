/* How fuel duplicates --near reads an example of a source as an image and hashes it: uint8
   arrays with an axis labelled channel (first or last), gray uint8 arrays of two axes, and stored
   image files (variable-length uint8 of one axis): JPEGs decoded at a reduced scale to their
   luma, PNGs (ImageNet holds one under a .JPEG name) in full. */
#ifndef FUEL_IMAGE_HASHES_H
#define FUEL_IMAGE_HASHES_H

#include "common/formats/jpeg/jpeg_read.h"
#include "common/h5py/h5py_reader.h"
#include "perceptual_hash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct image_layout {
    bool encoded;      /* each example the bytes of a JPEG file */
    int channel_axis;  /* of the example's axes (0, or its last one); -1: gray, no such axis */
    int example_rank;  /* 2 or 3 for pixel arrays */
};

/* The layout of SOURCE's examples in FILE. EXIT_USAGE naming the source and the file when they
   are not images of one of the kinds above. */
int image_layout_find(const struct h5py_file *file, const struct h5py_file_source *source,
                      struct image_layout *layout);

/* The hash of one example of pixels: EXAMPLE_RANK values of SHAPE give its axes. */
int image_hash_pixels(const struct image_layout *layout, const uint8_t *pixels,
                      const uint64_t *shape, struct perceptual_hash *hash);

/* The hash of the SIZE bytes at DATA, a PNG or else a JPEG, decoded (a JPEG into IMAGE, kept
   from call to call) within the readers' limits; NAME is what an error names. EXIT_CORRUPT_INPUT
   when they do not decode. */
int image_hash_encoded(const uint8_t *data, size_t size, const char *name, struct jpeg_image *image,
                    struct perceptual_hash *hash);

#endif
