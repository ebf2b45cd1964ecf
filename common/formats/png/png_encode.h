/* Encodes 8-bit grayscale or RGB images as PNG with libpng, in memory or row by row to a file. */
#ifndef FUEL_PNG_ENCODE_H
#define FUEL_PNG_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A growable byte buffer that receives an encoded image; reusable across images. */
struct png_bytes {
    uint8_t *data;
    size_t size;
    size_t capacity;
};

/* Fills ROW (width * channels bytes, channels interleaved) with image row Y; nonzero stops. */
typedef int (*png_row_source)(void *context, uint32_t y, uint8_t *row);

/* Encodes the WIDTH x HEIGHT image of CHANNELS (1 gray, 3 RGB) interleaved 8-bit samples at PIXELS
   (rows top to bottom) into OUT, replacing its content. No time or text chunk is written, so the
   same pixels give the same bytes. EXIT_OTHER when out of memory, EXIT_USAGE on a bad shape. */
int png_encode_memory(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                      struct png_bytes *out);

/* Encodes an image whose rows SOURCE produces one at a time to STREAM (PATH names it in
   messages), so a large image is never held whole. EXIT_WRITE when the stream fails. */
int png_encode_stream(FILE *stream, const char *path, uint32_t width, uint32_t height,
                      int channels, png_row_source source, void *context);

void png_bytes_free(struct png_bytes *bytes);

#endif
