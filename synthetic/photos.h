/* Photo-like synthetic pictures for the JPEG datasets' fixtures and benchmarks. */
#ifndef FUEL_FIXTURE_PHOTOS_H
#define FUEL_FIXTURE_PHOTOS_H

#include "common/base/random.h"
#include "common/formats/jpeg_writer.h"

#include <stdint.h>

/* Draws HEIGHT x WIDTH x CHANNELS (1 or 3) bytes into PIXELS, interleaved as PIL holds an image:
   a lit gradient, soft blobs, hard-edged shapes, texture at three scales and sensor noise, so that
   JPEG spends its bits on it as on photographs (about 1.5 bits a pixel at quality 90).
   EXIT_OTHER when memory runs out. */
int picture_photo(struct random_state *random, uint8_t *pixels, uint32_t height, uint32_t width,
                  uint32_t channels);

/* A picture_photo of HEIGHT x WIDTH x CHANNELS encoded as JPEG at QUALITY into *OUTPUT. */
int photo_jpeg(struct random_state *random, uint32_t height, uint32_t width, uint32_t channels,
               int quality, struct jpeg_bytes *output);

#endif
