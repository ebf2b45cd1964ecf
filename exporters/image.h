/* Examples as 8-bit images: which axes are channel, height and width (from the axis labels), and
   an example turned into interleaved gray or RGB rows. */
#ifndef FUEL_IMAGE_H
#define FUEL_IMAGE_H

#include "example_source.h"

#include <stdint.h>

struct image_axes {
    int channel; /* -1: no channel axis (grayscale) */
    int height;
    int width;
};

struct image {
    uint32_t width;
    uint32_t height;
    int channels;    /* 1 or 3 */
    uint8_t *pixels; /* height rows of width * channels bytes; grown as needed, caller frees */
    size_t capacity;
};

/* Finds the image axes of SOURCE's examples from their labels. EXIT_USAGE naming the source and
   FORMS (the export forms that can hold it; NULL: none named) when the labels are not
   (channel,) height, width or a fixed source's channel count is not 1, 3 or 4 (CMYK). */
int image_axes_find(const struct example_source *source, const char *forms,
                    struct image_axes *axes);

/* Converts one example (DATA of SHAPE[0..RANK) elements of TYPE) into IMAGE: 1 channel gray, 3
   RGB, 4 CMYK turned to RGB as PIL's convert("RGB") does. */
int image_from_example(const void *data, struct numeric_type type, const uint64_t *shape,
                       int rank, const struct image_axes *axes, struct image *image);

/* The file name extension of an encoded example's bytes: "jpg" or "png"; NULL for anything else. */
const char *image_encoded_extension(const void *bytes, size_t size);

/* Decodes an encoded example (a JPEG or PNG file's bytes) into IMAGE as PIL shows it: gray, RGB,
   or CMYK turned to RGB as PIL's convert("RGB") does. NAME names it in messages. */
int image_from_encoded(const void *bytes, size_t size, const char *name, struct image *image);

void image_free(struct image *image);

#endif
