/* PIL's convert("RGB") of the pixels jpeg_decode gives (what torchvision's image loader does to
   every photo): gray replicated, CMYK by PIL's cmyk2rgb. */
#ifndef FUEL_JPEG_RGB_H
#define FUEL_JPEG_RGB_H

#include <stddef.h>
#include <stdint.h>

/* PIL's cmyk2rgb of one pixel: each channel (255 - k) - c * (255 - k) / 255, divided as its
   MULDIV255 divides. */
void jpeg_cmyk_pixel_to_rgb(const uint8_t *cmyk, uint8_t *rgb);

/* PIXELS interleaved pixels of CHANNELS (1, 3 or 4) at FROM as RGB at RGB (3 * PIXELS bytes;
   the two must not overlap). */
void jpeg_pixels_to_rgb(const uint8_t *from, uint32_t channels, size_t pixels, uint8_t *rgb);

#endif
