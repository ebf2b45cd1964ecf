/* CelebA: img_align_celeba.zip (JPEG faces) and list_attr_celeba.txt into celeba_64.hdf5 or
   celeba_aligned_cropped.hdf5 as Fuel 0.2 writes them: features uint8 (N, 3, 64, 64) or
   (N, 3, 218, 178), targets uint8 (N, 40) = (attribute + 1) / 2, splits train, valid, test. */
#include "celeba.h"
#include "converter.h"
#include "downloaders/celeba.h"
#include "zip_images.h"

#include "common/base/error.h"
#include "converters/attribute_list_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fuel fixes its splits for the 202599 faces: train [0, 162770), valid [162770, 182637), test
   [182637, 202599). An archive of N faces (a fixture, a partial download) is split at
   N * 162770 // 202599 and N * 182637 // 202599, which are Fuel's stops when N is 202599. */
#define FUEL_IMAGES UINT64_C(202599)
#define FUEL_TRAIN_STOP UINT64_C(162770)
#define FUEL_VALID_STOP UINT64_C(182637)

enum { ATTRIBUTES = 40 };
/* A face on its way: 178 x 218 pixels, decoded, and what is written of them. */
#define CELEBA_JOB_BYTES (2u * 178 * 218 * 3)

struct celeba_conversion {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    int features;
    int targets;
    struct zip_names names;
    uint64_t images;
    struct celeba_faces faces;
};

static int check_numbers(struct celeba_conversion *conversion, const char *path)
{
    bool *seen = calloc(conversion->images, sizeof *seen);
    if (seen == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < conversion->names.count; index++) {
        const char *name = zip_names_at(&conversion->names, index);
        uint64_t number = celeba_image_number(name);
        if (number > conversion->images)
            result = error_set(EXIT_CORRUPT_INPUT, "missing faces: %s: %s: the archive holds %"
                               PRIu64 " faces, which must be numbered from 000001", path, name,
                               conversion->images);
        else if (number > 0 && seen[number - 1])
            result = error_set(EXIT_CORRUPT_INPUT, "duplicate face: %s: %s", path, name);
        else if (number > 0)
            seen[number - 1] = true;
    }
    free(seen);
    return result;
}

/* The faces img_align_celeba/NNNNNN.jpg of the archive's central directory: N of them,
   numbered 1 to N (other members are passed over, as Fuel never opens them). */
static int list_faces(struct celeba_conversion *conversion, const char *path)
{
    int result = zip_names_read(path, &conversion->names);
    for (size_t index = 0; result == EXIT_OK && index < conversion->names.count; index++)
        conversion->images += celeba_image_number(zip_names_at(&conversion->names, index)) > 0;
    if (result == EXIT_OK && conversion->images == 0)
        result = error_set(EXIT_CORRUPT_INPUT, "no faces: %s: no member "
                           "img_align_celeba/NNNNNN.jpg", path);
    return result == EXIT_OK ? check_numbers(conversion, path) : result;
}

static int declare_sources(struct celeba_conversion *conversion, const struct celeba_layout *layout)
{
    uint64_t images = conversion->images;
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4,
        .shape = {images, 3, layout->height, layout->width},
        .axis_labels = {"batch", "channel", "height", "width"}};
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_UINT8, .rank = 2, .shape = {images, ATTRIBUTES},
        .axis_labels = {"batch", "target"}};
    uint64_t train = images * FUEL_TRAIN_STOP / FUEL_IMAGES;
    uint64_t valid = images * FUEL_VALID_STOP / FUEL_IMAGES;
    struct h5py_writer *writer = conversion->writer;
    int result = h5py_writer_add_source(writer, &targets, &conversion->targets);
    if (result == EXIT_OK)
        result = h5py_writer_add_source(writer, &features, &conversion->features);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, "train", NULL, 0, train);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, "valid", NULL, train, valid);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, "test", NULL, valid, images);
    return result;
}

/* Row I of the list must name face I + 1; the rows past the archive's faces are checked, then
   dropped (a partial archive). */
static int write_row(struct celeba_conversion *conversion, const char *path, uint64_t row,
                     const char *name, unsigned long line, const uint8_t *values)
{
    if (row >= conversion->images)
        return EXIT_OK;
    char expected[32];
    snprintf(expected, sizeof expected, CELEBA_FACE_NAME, row + 1);
    if (strcmp(name, expected) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "malformed attribute list: %s:%lu: %.64s where %s "
                         "was expected", path, line, name, expected);
    return h5py_writer_write(conversion->writer, conversion->targets, row, 1, values);
}

static int write_targets(struct celeba_conversion *conversion, const char *path)
{
    struct attribute_list *list;
    int result = attribute_list_open(&list, path, ATTRIBUTES);
    if (result != EXIT_OK)
        return result;
    converter_report_stage(conversion->arguments, path, 0);
    uint64_t rows = 0;
    for (bool read = true; result == EXIT_OK && read;) {
        const char *name;
        uint8_t values[ATTRIBUTES];
        unsigned long line;
        result = attribute_list_next(list, &name, values, &line, &read);
        if (result == EXIT_OK && read)
            result = write_row(conversion, path, rows++, name, line, values);
    }
    attribute_list_close(list);
    if (result == EXIT_OK && rows < conversion->images)
        result = error_set(EXIT_CORRUPT_INPUT, "missing attributes: %s: %" PRIu64 " faces listed, "
                           "the archive holds %" PRIu64, path, rows, conversion->images);
    return result;
}

static int place_face(void *context, size_t index, const char *name, uint64_t *row, bool *keep)
{
    (void)context;
    (void)index;
    uint64_t number = celeba_image_number(name);
    *keep = number > 0;
    *row = number > 0 ? number - 1 : 0;
    return EXIT_OK;
}

static int decode_face(void *context, struct zip_image *image)
{
    struct celeba_conversion *conversion = context;
    return celeba_face_decode(&conversion->faces, image);
}

static int write_face(void *context, struct zip_image *image)
{
    struct celeba_conversion *conversion = context;
    return h5py_writer_write(conversion->writer, conversion->features, image->row, 1,
                             celeba_face_row(&conversion->faces, image));
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    const struct celeba_layout *layout = arguments->dataset->converter->layout;
    struct celeba_conversion conversion = {.arguments = arguments, .writer = writer};
    char images[4096], attributes[4096];
    converter_input_path(arguments, CELEBA_IMAGES, images, sizeof images);
    converter_input_path(arguments, CELEBA_ATTRIBUTES, attributes, sizeof attributes);
    int result = list_faces(&conversion, images);
    if (result == EXIT_OK)
        result = declare_sources(&conversion, layout);
    if (result == EXIT_OK)
        result = write_targets(&conversion, attributes);
    if (result == EXIT_OK)
        result = celeba_faces_prepare(&conversion.faces, layout);
    struct zip_images_pass pass = {
        .arguments = arguments, .path = images, .names = &conversion.names,
        .total = conversion.images, .job_bytes = CELEBA_JOB_BYTES, .place = place_face,
        .decode = decode_face, .write = write_face, .context = &conversion};
    if (result == EXIT_OK)
        result = zip_images_run(&pass);
    celeba_faces_free(&conversion.faces);
    zip_names_free(&conversion.names);
    return result;
}

static const struct celeba_layout aligned_cropped = {.resize = false, .height = CELEBA_HEIGHT,
                                                     .width = CELEBA_WIDTH};
static const struct celeba_layout sixty_four = {.resize = true, .height = CELEBA_SIDE,
                                                .width = CELEBA_SIDE};

const struct converter celeba_aligned_cropped_converter = {
    .summary = "CelebA faces (178x218 JPEGs) and attributes into celeba_aligned_cropped.hdf5",
    .inputs = {CELEBA_IMAGES, CELEBA_ATTRIBUTES},
    .input_count = CELEBA_FILE_COUNT,
    .output_file = "celeba_aligned_cropped.hdf5",
    .convert = convert,
    .layout = &aligned_cropped,
};

const struct converter celeba_64_converter = {
    .summary = "CelebA faces resized and cropped to 64x64 as Fuel does into celeba_64.hdf5",
    .inputs = {CELEBA_IMAGES, CELEBA_ATTRIBUTES},
    .input_count = CELEBA_FILE_COUNT,
    .output_file = "celeba_64.hdf5",
    .convert = convert,
    .layout = &sixty_four,
};
