/* PIL's convert("RGB") of decoded JPEG pixels: gray replicated, CMYK by PIL's cmyk2rgb. */
#include "jpeg_rgb.h"

#include <string.h>

void jpeg_cmyk_pixel_to_rgb(const uint8_t *cmyk, uint8_t *rgb)
{
    int remaining = 255 - cmyk[3];
    for (int channel = 0; channel < 3; channel++) {
        int product = cmyk[channel] * remaining + 128;
        int value = remaining - (((product >> 8) + product) >> 8);
        rgb[channel] = (uint8_t)(value < 0 ? 0 : value);
    }
}

void jpeg_pixels_to_rgb(const uint8_t *from, uint32_t channels, size_t pixels, uint8_t *rgb)
{
    if (channels == 3) {
        memcpy(rgb, from, pixels * 3);
        return;
    }
    for (size_t pixel = 0; pixel < pixels; pixel++) {
        if (channels == 4)
            jpeg_cmyk_pixel_to_rgb(from + 4 * pixel, rgb + 3 * pixel);
        else
            memset(rgb + 3 * pixel, from[pixel], 3);
    }
}
