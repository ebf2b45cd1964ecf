/* One image file of an image folder: its header read for its shape, or its pixels decoded (PNG
   with libpng, JPEG with libjpeg-turbo as PIL decodes it, every libjpeg warning an error). */
#ifndef FUEL_PACK_IMAGE_FILE_H
#define FUEL_PACK_IMAGE_FILE_H

#include "common/formats/jpeg/jpeg_read.h"
#include "common/formats/png/png_read.h"

#include <stddef.h>
#include <stdint.h>

/* Image files larger than this are refused before they are read. */
#define IMAGE_FILE_MAX_BYTES (256u << 20)

struct image_file {
    unsigned char *bytes; /* the file, read; reused from one file to the next */
    size_t capacity;
    size_t size;
    struct jpeg_image jpeg;
    struct png_rgb png;
    uint32_t channels, height, width;
    /* After image_file_probe: what decoding the file holds at most (its bytes, its pixels twice,
       a progressive JPEG's coefficients). */
    uint64_t decoding_bytes;
    const uint8_t *pixels; /* channels x height x width, after image_file_decode */
};

/* The channels, height and width PATH's header declares, into SHAPE. EXIT_MISSING_INPUT when it
   cannot be read, EXIT_CORRUPT_INPUT when it is not a PNG or JPEG or its pixels would take more
   than the 64 MiB an example may hold. */
int image_file_probe(struct image_file *file, const char *path, uint64_t shape[3]);

/* Reads and decodes PATH into FILE's pixels. EXIT_CORRUPT_INPUT naming PATH when it does not
   decode. */
int image_file_decode(struct image_file *file, const char *path);

void image_file_free(struct image_file *file);

#endif
