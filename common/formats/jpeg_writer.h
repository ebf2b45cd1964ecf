/* Encodes pixels held in memory as baseline JPEG files with libjpeg-turbo (synthetic ImageNet
   archives for fixtures and benchmarks). */
#ifndef FUEL_JPEG_WRITER_H
#define FUEL_JPEG_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct jpeg_bytes {
    unsigned char *data; /* malloc'd by libjpeg, replaced at each encoding */
    unsigned long size;
};

/* Encodes HEIGHT x WIDTH x CHANNELS interleaved bytes at PIXELS (1: grayscale, 3: RGB, stored as
   YCbCr 4:2:0; 4: CMYK, stored as Adobe's inverted CMYK as PIL writes it) at QUALITY (1..100)
   into BYTES (start from a zeroed struct). EXIT_OTHER when libjpeg fails. */
int jpeg_encode(const uint8_t *pixels, uint32_t height, uint32_t width, uint32_t channels,
                int quality, struct jpeg_bytes *bytes);

void jpeg_bytes_free(struct jpeg_bytes *bytes);

#endif
