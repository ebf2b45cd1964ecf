/* Encodes 8-bit RGB pictures as PNG in memory with libpng, without time chunks (reproducible). */
#ifndef FUEL_PNG_WRITE_H
#define FUEL_PNG_WRITE_H

#include "common/formats/png/png_encode.h"

#include <stddef.h>
#include <stdint.h>

/* Encodes PIXELS, channel-major (3 x HEIGHT x WIDTH), into BYTES (reset first; free data after). */
int png_encode_rgb(const uint8_t *pixels, uint32_t height, uint32_t width, struct png_bytes *bytes);

#endif
