/* Encodes pixels as baseline JPEG with libjpeg-turbo, as PIL's Image.save(f, "JPEG", quality=Q)
   does (libjpeg's defaults: 4:2:0 chroma subsampling, no optimized tables). */
#ifndef FUEL_JPEG_WRITER_H
#define FUEL_JPEG_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct jpeg_bytes {
    unsigned char *data; /* malloc'd; free() it */
    size_t size;
};

/* Encodes HEIGHT x WIDTH x CHANNELS (1: grayscale, 3: RGB) interleaved bytes at PIXELS at QUALITY
   (1 to 100) into *OUTPUT (whose former data are freed). EXIT_OTHER when memory runs out or the
   arguments are out of range. */
int jpeg_encode(const uint8_t *pixels, uint32_t height, uint32_t width, uint32_t channels,
                int quality, struct jpeg_bytes *output);

#endif
