/* Reads examples as images and hashes them (image_hashes.h). */
#include "image_hashes.h"

#include "common/base/error.h"
#include "common/formats/png/png_read.h"

#include <string.h>

/* The labels of SOURCE's example axes: its dimension labels past the first, or for
   variable-length sources its shape labels. */
static const char *example_axis_label(const struct h5py_file_source *source, int axis)
{
    if (source->variable_length)
        return (size_t)axis < source->shape_label_count ? source->shape_labels[axis] : "";
    return (size_t)(axis + 1) < source->axis_label_count ? source->axis_labels[axis + 1] : "";
}

static int refuse(const struct h5py_file *file, const struct h5py_file_source *source,
                  const char *why)
{
    return error_set(EXIT_USAGE, "--near compares images: source %s %s: %s", source->name, why,
                     file->path);
}

int image_layout_find(const struct h5py_file *file, const struct h5py_file_source *source,
                      struct image_layout *layout)
{
    *layout = (struct image_layout){.channel_axis = -1};
    if (strcmp(source->dtype, "uint8") != 0)
        return refuse(file, source, "is not uint8");
    int rank = source->variable_length ? (int)source->shapes_columns : source->rank - 1;
    if (source->variable_length && (rank <= 1 || source->shapes_name == NULL)) {
        layout->encoded = true; /* a flat byte string each: stored image files */
        return EXIT_OK;
    }
    layout->example_rank = rank;
    if (rank == 2)
        return EXIT_OK;
    if (rank != 3)
        return refuse(file, source, "is not one of images (two axes, or three with one "
                                    "labelled channel)");
    if (strcmp(example_axis_label(source, 0), "channel") == 0)
        layout->channel_axis = 0;
    else if (strcmp(example_axis_label(source, 2), "channel") == 0)
        layout->channel_axis = 2;
    else
        return refuse(file, source, "has three axes but none labelled channel first or last");
    return EXIT_OK;
}

int image_hash_pixels(const struct image_layout *layout, const uint8_t *pixels,
                      const uint64_t *shape, struct perceptual_hash *hash)
{
    uint64_t channels = 1, height = shape[0], width = shape[1];
    if (layout->channel_axis == 0)
        channels = shape[0], height = shape[1], width = shape[2];
    else if (layout->channel_axis == 2)
        channels = shape[2];
    if (channels > UINT32_MAX || height > UINT32_MAX || width > UINT32_MAX)
        return error_set(EXIT_CORRUPT_INPUT, "cannot hash an image of %llu x %llu x %llu",
                         (unsigned long long)channels, (unsigned long long)height,
                         (unsigned long long)width);
    return perceptual_hash_pixels(pixels, (uint32_t)channels, (uint32_t)height, (uint32_t)width,
                                  layout->channel_axis == 2, hash);
}

static int png_hash(const uint8_t *data, size_t size, const char *name,
                    struct perceptual_hash *hash)
{
    struct png_rgb decoded = {0};
    int result = png_rgb_decode(data, size, name, &decoded);
    if (result == EXIT_OK)
        result = perceptual_hash_pixels(decoded.pixels, decoded.channels, decoded.height,
                                        decoded.width, 0, hash);
    png_rgb_free(&decoded);
    return result;
}

int image_hash_encoded(const uint8_t *data, size_t size, const char *name,
                       struct jpeg_image *image, struct perceptual_hash *hash)
{
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size >= sizeof png_signature && memcmp(data, png_signature, sizeof png_signature) == 0)
        return png_hash(data, size, name, hash);
    struct jpeg_options options = {.interleaved = true, .warnings_as_pil = true,
                                   .reduce_to = PERCEPTUAL_HASH_SIDE, .luminance = true};
    int result = jpeg_decode(data, size, name, &options, image);
    if (result != EXIT_OK)
        return result;
    return perceptual_hash_pixels(image->pixels, image->channels, image->height, image->width, 1,
                                  hash);
}
