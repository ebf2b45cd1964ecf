/* Encodes pixels held in memory as baseline JPEG with libjpeg-turbo, as PIL's
   Image.save(f, "JPEG", quality=Q) does (libjpeg's defaults: 4:2:0 chroma subsampling, no
   optimized tables): the synthetic CelebA, Dogs vs Cats and ImageNet raw files. */
#ifndef FUEL_JPEG_WRITE_H
#define FUEL_JPEG_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct jpeg_bytes {
    unsigned char *data; /* malloc'd; jpeg_bytes_free (or free) it */
    size_t size;
};

/* Encodes HEIGHT x WIDTH x CHANNELS interleaved bytes at PIXELS (1: grayscale; 3: RGB, stored as
   YCbCr 4:2:0; 4: CMYK, stored as Adobe's inverted CMYK as PIL writes it) at QUALITY (1 to 100)
   into *OUTPUT (start from a zeroed struct; its former data are freed once the new bytes are
   whole, and kept on failure). EXIT_OTHER when memory runs out, libjpeg fails or the arguments
   are out of range. */
int jpeg_encode(const uint8_t *pixels, uint32_t height, uint32_t width, uint32_t channels,
                int quality, struct jpeg_bytes *output);

/* Frees BYTES' data and zeroes it. */
void jpeg_bytes_free(struct jpeg_bytes *bytes);

#endif
