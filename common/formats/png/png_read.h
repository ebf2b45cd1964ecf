/* Decodes a PNG held in memory into 8-bit RGB, or into its stored channels, channel-major
   (channels x height x width), with libpng; reads the size and channels a PNG declares. */
#ifndef FUEL_PNG_READ_H
#define FUEL_PNG_READ_H

#include <stddef.h>
#include <stdint.h>

/* Images whose width or height exceeds this are refused before any pixel buffer is allocated. */
#define PNG_RGB_MAX_SIDE 65535u
/* Images of more pixels than this are refused likewise (3 bytes each, twice while decoding). */
#define PNG_RGB_MAX_PIXELS (64u * 1024u * 1024u)

struct png_rgb {
    uint32_t height;
    uint32_t width;
    uint32_t channels; /* 3 from png_rgb_decode; 1 to 4 from png_decode_stored */
    uint8_t *pixels;   /* channels * height * width bytes: all red rows, then green, then blue */
};

/* Decodes the SIZE bytes at DATA. Palette and grayscale images are expanded to RGB, an alpha
   channel is dropped (not composited), 16-bit samples keep their high byte. EXIT_CORRUPT_INPUT
   naming NAME when the bytes are not a decodable PNG or declare an absurd size. */
int png_rgb_decode(const void *data, size_t size, const char *name, struct png_rgb *image);

/* Decodes the SIZE bytes at DATA keeping the stored channels, as PIL's modes have them: gray 1,
   gray and alpha 2, RGB 3, RGBA 4; a palette is expanded to RGB (its transparency ignored), gray
   depths below 8 bits scaled to 8 (1-bit black and white: 0 and 255), 16-bit samples keep their
   high byte. Errors as png_rgb_decode. */
int png_decode_stored(const void *data, size_t size, const char *name, struct png_rgb *image);

/* The width, height and channels (as png_decode_stored decodes them) the IHDR chunk at the start
   of the SIZE bytes at DATA declares, without decoding. EXIT_CORRUPT_INPUT naming NAME when they
   do not start as a PNG does. */
int png_probe(const void *data, size_t size, const char *name, uint32_t *width, uint32_t *height,
              uint32_t *channels);

void png_rgb_free(struct png_rgb *image);

#endif
