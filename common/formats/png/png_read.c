/* Decodes a PNG held in memory into 8-bit RGB or its stored channels, channel-major, with libpng;
   reads what its IHDR chunk declares. */
#include "png_read.h"

#include "common/base/error.h"
#include "png_messages.h"

#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deflate cannot expand a stream by more than 1032 times (258-byte matches coded in 2 bits), so
   the filtered rows an image declares must fit in 1032 times the PNG's bytes. */
#define DEFLATE_MAXIMUM_RATIO 1032u

/* Everything a decoding owns, kept outside the frame that calls setjmp so that libpng's longjmp
   leaves it intact. */
struct decoding {
    const uint8_t *data;
    size_t size;
    size_t offset;
    bool as_stored; /* keep the stored channels (png_decode_stored) rather than RGB */
    char message[PNG_MESSAGE_SIZE];
    uint8_t *interleaved;
    png_bytep *rows;
};

static void read_from_memory(png_structp png, png_bytep buffer, size_t length)
{
    struct decoding *decoding = png_get_io_ptr(png);
    if (length > decoding->size - decoding->offset)
        png_error(png, "truncated PNG data");
    memcpy(buffer, decoding->data + decoding->offset, length);
    decoding->offset += length;
}

static bool declared_size_is_plausible(png_structp png, png_infop info, struct decoding *decoding)
{
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    uint64_t filtered = (uint64_t)height * ((uint64_t)png_get_rowbytes(png, info) + 1);
    if (width > PNG_RGB_MAX_SIDE || height > PNG_RGB_MAX_SIDE ||
        (uint64_t)width * height > PNG_RGB_MAX_PIXELS ||
        filtered / DEFLATE_MAXIMUM_RATIO > decoding->size) {
        snprintf(decoding->message, sizeof decoding->message,
                 "declares %ux%u pixels, more than %u per side, %u in all or its %zu bytes can hold",
                 width, height, PNG_RGB_MAX_SIDE, PNG_RGB_MAX_PIXELS, decoding->size);
        return false;
    }
    return true;
}

/* Asks libpng for 8-bit RGB whatever the stored color type and depth. */
static bool request_rgb(png_structp png, png_infop info, struct decoding *decoding)
{
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_strip_alpha(png);
    png_set_gray_to_rgb(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_channels(png, info) != 3 || png_get_bit_depth(png, info) != 8) {
        snprintf(decoding->message, sizeof decoding->message, "cannot be converted to 8-bit RGB");
        return false;
    }
    return true;
}

/* Asks libpng for 8-bit samples in the stored channels: palettes as RGB, small gray depths
   scaled up, 16 bits cut to their high byte. */
static bool request_stored(png_structp png, png_infop info, struct decoding *decoding)
{
    int color = png_get_color_type(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    png_set_strip_16(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_channels(png, info) < 1 || png_get_channels(png, info) > 4 ||
        png_get_bit_depth(png, info) != 8) {
        snprintf(decoding->message, sizeof decoding->message, "cannot be read as 8-bit samples");
        return false;
    }
    return true;
}

static void interleaved_to_planar(const uint8_t *interleaved, struct png_rgb *image)
{
    size_t plane = (size_t)image->height * image->width, channels = image->channels;
    for (size_t pixel = 0; pixel < plane; pixel++)
        for (size_t channel = 0; channel < channels; channel++)
            image->pixels[channel * plane + pixel] = interleaved[pixel * channels + channel];
}

static bool decode_rows(png_structp png, png_infop info, struct decoding *decoding,
                        struct png_rgb *image)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_set_read_fn(png, decoding, read_from_memory);
    png_read_info(png, info);
    if (!declared_size_is_plausible(png, info, decoding) ||
        !(decoding->as_stored ? request_stored(png, info, decoding)
                              : request_rgb(png, info, decoding)))
        return false;
    image->width = png_get_image_width(png, info);
    image->height = png_get_image_height(png, info);
    image->channels = png_get_channels(png, info);
    size_t row_bytes = (size_t)image->width * image->channels;
    decoding->interleaved = malloc(row_bytes * image->height);
    decoding->rows = malloc(sizeof *decoding->rows * image->height);
    image->pixels = malloc(row_bytes * image->height);
    if (decoding->interleaved == NULL || decoding->rows == NULL || image->pixels == NULL)
        png_error(png, "out of memory");
    for (uint32_t row = 0; row < image->height; row++)
        decoding->rows[row] = decoding->interleaved + row * row_bytes;
    png_read_image(png, decoding->rows);
    interleaved_to_planar(decoding->interleaved, image);
    return true;
}

static int decode(const void *data, size_t size, const char *name, struct png_rgb *image,
                  bool as_stored)
{
    struct decoding decoding = {.data = data, .size = size, .as_stored = as_stored};
    *image = (struct png_rgb){0};
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode PNG: %s: no PNG signature", name);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoding.message,
                                             png_message_keep, png_warning_ignore);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return error_set(EXIT_OTHER, "cannot decode PNG: %s: out of memory", name);
    }
    bool decoded = decode_rows(png, info, &decoding, image);
    png_destroy_read_struct(&png, &info, NULL);
    free(decoding.interleaved);
    free(decoding.rows);
    if (!decoded) {
        png_rgb_free(image);
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode PNG: %s: %s", name, decoding.message);
    }
    return EXIT_OK;
}

int png_rgb_decode(const void *data, size_t size, const char *name, struct png_rgb *image)
{
    return decode(data, size, name, image, false);
}

int png_decode_stored(const void *data, size_t size, const char *name, struct png_rgb *image)
{
    return decode(data, size, name, image, true);
}

static uint32_t big_endian_32(const uint8_t *bytes)
{
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 |
           bytes[3];
}

int png_probe(const void *data, size_t size, const char *name, uint32_t *width, uint32_t *height,
              uint32_t *channels)
{
    static const uint32_t channels_of[7] = {1, 0, 3, 3, 2, 0, 4}; /* by color type */
    const uint8_t *bytes = data;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode PNG: %s: no PNG signature", name);
    if (size < 33 || big_endian_32(bytes + 8) != 13 || memcmp(bytes + 12, "IHDR", 4) != 0 ||
        bytes[25] > 6 || channels_of[bytes[25]] == 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode PNG: %s: no valid IHDR chunk", name);
    *width = big_endian_32(bytes + 16);
    *height = big_endian_32(bytes + 20);
    *channels = channels_of[bytes[25]];
    return EXIT_OK;
}

void png_rgb_free(struct png_rgb *image)
{
    free(image->pixels);
    *image = (struct png_rgb){0};
}
