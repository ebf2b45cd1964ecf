/* Channel-major RGB pictures encoded as PNG by common/formats/png_encode. */
#include "png_write.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

/* The rows, interleaved RGB, from the channel-major picture. */
static void interleave(const uint8_t *pixels, uint32_t height, uint32_t width, uint8_t *rows)
{
    size_t plane = (size_t)height * width;
    for (size_t index = 0; index < plane; index++)
        for (size_t channel = 0; channel < 3; channel++)
            rows[3 * index + channel] = pixels[channel * plane + index];
}

int png_encode_rgb(const uint8_t *pixels, uint32_t height, uint32_t width, struct png_bytes *bytes)
{
    bytes->size = 0;
    uint8_t *rows = malloc(3 * (size_t)height * width);
    if (rows == NULL)
        return error_set(EXIT_OTHER, "cannot encode PNG: out of memory");
    interleave(pixels, height, width, rows);
    int result = png_encode_memory(rows, width, height, 3, bytes);
    free(rows);
    return result;
}
