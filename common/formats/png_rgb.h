/* Decodes a PNG held in memory into 8-bit RGB, channel-major (3 x height x width), with libpng. */
#ifndef FUEL_PNG_RGB_H
#define FUEL_PNG_RGB_H

#include <stddef.h>
#include <stdint.h>

/* Images whose width or height exceeds this are refused before any pixel buffer is allocated. */
#define PNG_RGB_MAX_SIDE 65535u
/* Images of more pixels than this are refused likewise (3 bytes each, twice while decoding). */
#define PNG_RGB_MAX_PIXELS (64u * 1024u * 1024u)

struct png_rgb {
    uint32_t height;
    uint32_t width;
    uint8_t *pixels; /* 3 * height * width bytes: all red rows, then green, then blue */
};

/* Decodes the SIZE bytes at DATA. Palette and grayscale images are expanded to RGB, an alpha
   channel is dropped (not composited), 16-bit samples keep their high byte. EXIT_CORRUPT_INPUT
   naming NAME when the bytes are not a decodable PNG or declare an absurd size. */
int png_rgb_decode(const void *data, size_t size, const char *name, struct png_rgb *image);

void png_rgb_free(struct png_rgb *image);

#endif
