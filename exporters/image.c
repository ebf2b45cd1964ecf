/* Turns examples of (channel,) height, width sources into interleaved 8-bit gray or RGB images. */
#include "image.h"

#include "common/base/error.h"
#include "common/formats/jpeg/jpeg_read.h"
#include "common/formats/jpeg/jpeg_rgb.h"
#include "common/formats/png/png_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int not_an_image(const struct example_source *source, const char *forms, const char *why)
{
    if (forms == NULL)
        return error_set(EXIT_USAGE, "source %s is not an image (%s): images have (channel,) "
                         "height and width axes", source->name, why);
    return error_set(EXIT_USAGE, "source %s is not an image (%s): %s can hold it", source->name,
                     why, forms);
}

static int labels_describe(const struct example_source *source, int rank, char *text, size_t size)
{
    size_t length = (size_t)snprintf(text, size, rank > 0 ? "axes" : "no axes");
    for (int axis = 0; axis < rank && length < size; axis++)
        length += (size_t)snprintf(text + length, size - length, "%s%s", axis ? ", " : " ",
                                   example_source_axis_label(source, axis));
    return 0;
}

int image_axes_find(const struct example_source *source, const char *forms,
                    struct image_axes *axes)
{
    int rank = source->variable ? source->vlen.example_rank : source->fixed.rank - 1;
    *axes = (struct image_axes){-1, -1, -1};
    for (int axis = 0; axis < rank; axis++) {
        const char *label = example_source_axis_label(source, axis);
        int *slot = strcmp(label, "channel") == 0 ? &axes->channel
                    : strcmp(label, "height") == 0 ? &axes->height
                    : strcmp(label, "width") == 0  ? &axes->width : NULL;
        if (slot != NULL)
            *slot = axis;
    }
    char why[256];
    labels_describe(source, rank, why, sizeof why);
    if (axes->height < 0 || axes->width < 0 || rank != 2 + (axes->channel >= 0))
        return not_an_image(source, forms, why);
    if (!source->variable && axes->channel >= 0) {
        uint64_t channels = source->fixed.shape[axes->channel + 1];
        if (channels != 1 && channels != 3 && channels != 4)
            return not_an_image(source, forms, "neither 1, 3 nor 4 (CMYK) channels");
    }
    return EXIT_OK;
}

static int image_reserve(struct image *image, uint64_t height, uint64_t width, uint64_t channels)
{
    if (channels != 1 && channels != 3)
        return error_set(EXIT_CORRUPT_INPUT, "an image of %llu channels, neither 1 nor 3",
                         (unsigned long long)channels);
    if (height == 0 || width == 0 || height > PNG_RGB_MAX_SIDE || width > PNG_RGB_MAX_SIDE ||
        height * width > PNG_RGB_MAX_PIXELS)
        return error_set(EXIT_CORRUPT_INPUT, "an image of %llux%llu pixels",
                         (unsigned long long)width, (unsigned long long)height);
    size_t bytes = (size_t)(height * width * channels);
    if (bytes > image->capacity) {
        uint8_t *grown = realloc(image->pixels, bytes);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory for an image");
        image->pixels = grown;
        image->capacity = bytes;
    }
    image->height = (uint32_t)height;
    image->width = (uint32_t)width;
    image->channels = (int)channels;
    return EXIT_OK;
}

/* An example of 4 channels holds a CMYK JPEG's pixels as PIL decodes them (Dogs vs Cats stores
   them so): they become RGB as PIL's convert("RGB") makes them. */
int image_from_example(const void *data, struct numeric_type type, const uint64_t *shape,
                       int rank, const struct image_axes *axes, struct image *image)
{
    uint64_t channels = axes->channel >= 0 ? shape[axes->channel] : 1;
    int result = image_reserve(image, shape[axes->height], shape[axes->width],
                               channels == 4 ? 3 : channels);
    if (result != EXIT_OK)
        return result;
    /* C-order strides of the example's axes, whatever their order. */
    uint64_t stride[H5PY_VLEN_MAX_RANK];
    stride[rank - 1] = 1;
    for (int axis = rank - 1; axis > 0; axis--)
        stride[axis - 1] = stride[axis] * shape[axis];
    uint64_t channel_stride = axes->channel >= 0 ? stride[axes->channel] : 0;
    uint8_t *out = image->pixels;
    for (uint64_t y = 0; y < image->height; y++)
        for (uint64_t x = 0; x < image->width; x++) {
            uint64_t base = y * stride[axes->height] + x * stride[axes->width];
            uint8_t pixel[4];
            for (uint64_t channel = 0; channel < channels; channel++)
                pixel[channel] = element_pixel(data, base + channel * channel_stride, type);
            if (channels == 4)
                jpeg_cmyk_pixel_to_rgb(pixel, out);
            else
                memcpy(out, pixel, channels);
            out += channels == 4 ? 3 : channels;
        }
    return EXIT_OK;
}

const char *image_encoded_extension(const void *bytes, size_t size)
{
    const unsigned char *start = bytes;
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size >= 2 && start[0] == 0xFF && start[1] == 0xD8)
        return "jpg";
    if (size >= sizeof png && memcmp(start, png, sizeof png) == 0)
        return "png";
    return NULL;
}

static int jpeg_to_image(const void *bytes, size_t size, const char *name, struct image *image)
{
    struct jpeg_image decoded = {0};
    struct jpeg_options options = {.interleaved = true, .warnings_as_pil = true};
    int result = jpeg_decode(bytes, size, name, &options, &decoded);
    uint32_t channels = decoded.channels == 1 ? 1 : 3;
    if (result == EXIT_OK)
        result = image_reserve(image, decoded.height, decoded.width, channels);
    size_t pixels = (size_t)decoded.height * decoded.width;
    if (result == EXIT_OK && decoded.channels == 4)
        jpeg_pixels_to_rgb(decoded.pixels, 4, pixels, image->pixels);
    else if (result == EXIT_OK)
        memcpy(image->pixels, decoded.pixels, pixels * channels);
    jpeg_image_free(&decoded);
    return result;
}

static int png_to_image(const void *bytes, size_t size, const char *name, struct image *image)
{
    struct png_rgb decoded = {0};
    int result = png_rgb_decode(bytes, size, name, &decoded);
    if (result == EXIT_OK)
        result = image_reserve(image, decoded.height, decoded.width, 3);
    size_t pixels = (size_t)decoded.height * decoded.width;
    for (size_t pixel = 0; result == EXIT_OK && pixel < pixels; pixel++)
        for (int channel = 0; channel < 3; channel++)
            image->pixels[3 * pixel + channel] = decoded.pixels[channel * pixels + pixel];
    png_rgb_free(&decoded);
    return result;
}

int image_from_encoded(const void *bytes, size_t size, const char *name, struct image *image)
{
    const char *extension = image_encoded_extension(bytes, size);
    if (extension == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode image: %s: neither JPEG nor PNG",
                         name);
    return strcmp(extension, "jpg") == 0 ? jpeg_to_image(bytes, size, name, image)
                                         : png_to_image(bytes, size, name, image);
}

void image_free(struct image *image)
{
    free(image->pixels);
    *image = (struct image){0};
}
