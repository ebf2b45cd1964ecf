/* MNIST's and Fashion-MNIST's converter: their four IDX files (downloaders/mnist.c) into features
   (N,1,28,28) and targets (N,1). */
#include "converter.h"
#include "downloaders/mnist.h"

#include "common/base/error.h"
#include "converters/idx_read.h"
#include "common/formats/read_ahead.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IMAGE_MAGIC = 2051, LABEL_MAGIC = 2049, SPLIT_COUNT = 2 };
enum { MAXIMUM_PIXELS = 1 << 20, BLOCK_BYTES = 1 << 20 };

static const char *const split_names[SPLIT_COUNT] = MNIST_SPLITS;
static const enum mnist_file split_images[SPLIT_COUNT] = {MNIST_TRAIN_IMAGES, MNIST_TEST_IMAGES};
static const enum mnist_file split_labels[SPLIT_COUNT] = {MNIST_TRAIN_LABELS, MNIST_TEST_LABELS};

/* The dataset options of MNIST and Fashion-MNIST. */
struct idx_options {
    const char *dtype;
};

static const struct idx_options option_defaults = {.dtype = "uint8"};

static const struct command_option options[] = {
    {.long_name = "dtype", .kind = OPTION_STRING, .offset = offsetof(struct idx_options, dtype),
     .choices = "uint8 float32 float64 bool", .completion = COMPLETE_CHOICE,
     .help = "element type of features: uint8 (pixels as stored), float32 or float64 (pixel / "
             "255), bool (pixel >= 128) (default: uint8)"},
};

/* The --dtype given, NULL for the default. */
static const char *chosen_dtype(const struct converter_arguments *arguments)
{
    const struct idx_options *chosen = arguments->options;
    return chosen != NULL ? chosen->dtype : NULL;
}

struct split_input {
    struct idx_reader *images;
    struct idx_reader *labels;
    struct idx_header image_header;
    struct idx_header label_header;
    char image_path[4096];
    char label_path[4096];
};

/* DATASET.hdf5, or DATASET_DTYPE.hdf5 when --dtype is not uint8 (mnist_float32.hdf5). */
static void name_output(const struct converter_arguments *arguments, char *name, size_t size)
{
    const char *dataset = arguments->dataset->name, *dtype = chosen_dtype(arguments);
    if (dtype == NULL || strcmp(dtype, "uint8") == 0)
        snprintf(name, size, "%s.hdf5", dataset);
    else
        snprintf(name, size, "%s_%s.hdf5", dataset, dtype);
}

static enum element_type feature_type(const char *dtype)
{
    if (dtype == NULL || strcmp(dtype, "uint8") == 0)
        return ELEMENT_UINT8;
    if (strcmp(dtype, "float32") == 0)
        return ELEMENT_FLOAT32;
    if (strcmp(dtype, "float64") == 0)
        return ELEMENT_FLOAT64;
    return ELEMENT_BOOL;
}

static int check_headers(const struct split_input *input)
{
    const struct idx_header *images = &input->image_header, *labels = &input->label_header;
    if (images->magic != IMAGE_MAGIC || images->rank != 3)
        return error_set(EXIT_CORRUPT_INPUT, "not an MNIST image file: %s: magic number %u",
                         input->image_path, images->magic);
    if (labels->magic != LABEL_MAGIC || labels->rank != 1)
        return error_set(EXIT_CORRUPT_INPUT, "not an MNIST label file: %s: magic number %u",
                         input->label_path, labels->magic);
    if ((uint64_t)images->dimensions[1] * images->dimensions[2] > MAXIMUM_PIXELS ||
        images->dimensions[1] == 0 || images->dimensions[2] == 0)
        return error_set(EXIT_CORRUPT_INPUT, "absurd image size: %s: %u x %u", input->image_path,
                         images->dimensions[1], images->dimensions[2]);
    if (images->dimensions[0] != labels->dimensions[0])
        return error_set(EXIT_CORRUPT_INPUT, "count mismatch: %s: %u images but %s has %u labels",
                         input->image_path, images->dimensions[0], input->label_path,
                         labels->dimensions[0]);
    return EXIT_OK;
}

static int open_split(const struct converter_arguments *arguments, int split,
                      struct split_input *input)
{
    converter_input_path(arguments, split_images[split], input->image_path,
                         sizeof input->image_path);
    converter_input_path(arguments, split_labels[split], input->label_path,
                         sizeof input->label_path);
    int result = idx_open(&input->images, input->image_path, &input->image_header,
                          arguments->threads);
    if (result == EXIT_OK)
        result = idx_open(&input->labels, input->label_path, &input->label_header,
                          arguments->threads);
    if (result == EXIT_OK)
        result = check_headers(input);
    return result;
}

static int check_same_image_size(const struct split_input inputs[SPLIT_COUNT])
{
    const uint32_t *first = inputs[0].image_header.dimensions;
    const uint32_t *second = inputs[1].image_header.dimensions;
    if (first[1] != second[1] || first[2] != second[2])
        return error_set(EXIT_CORRUPT_INPUT, "image size mismatch: %s: %u x %u, but %s: %u x %u",
                         inputs[1].image_path, second[1], second[2], inputs[0].image_path,
                         first[1], first[2]);
    return EXIT_OK;
}

static int declare_sources(struct h5py_writer *writer, const struct split_input inputs[SPLIT_COUNT],
                           enum element_type type, int *features, int *targets)
{
    uint64_t total = (uint64_t)inputs[0].image_header.dimensions[0] +
                     inputs[1].image_header.dimensions[0];
    struct h5py_source_declaration feature_source = {
        .name = "features", .type = type, .rank = 4,
        .shape = {total, 1, inputs[0].image_header.dimensions[1],
                  inputs[0].image_header.dimensions[2]},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    struct h5py_source_declaration target_source = {
        .name = "targets", .type = ELEMENT_UINT8, .rank = 2, .shape = {total, 1},
        .axis_labels = {"batch", "index"},
    };
    int result = h5py_writer_add_source(writer, &feature_source, features);
    if (result == EXIT_OK)
        result = h5py_writer_add_source(writer, &target_source, targets);
    return result;
}

static void convert_pixels(const unsigned char *pixels, size_t count, enum element_type type,
                           void *output)
{
    if (type == ELEMENT_FLOAT32) {
        float *values = output;
        for (size_t index = 0; index < count; index++)
            values[index] = (float)pixels[index] / 255.0f;
    } else if (type == ELEMENT_FLOAT64) {
        double *values = output;
        for (size_t index = 0; index < count; index++)
            values[index] = (double)pixels[index] / 255.0;
    } else {
        unsigned char *values = output;
        for (size_t index = 0; index < count; index++)
            values[index] = pixels[index] >= 128;
    }
}

struct block {
    unsigned char *pixels;
    void *converted; /* NULL for uint8 */
    uint64_t images;
};

/* Bytes per image (rows x columns of unsigned bytes), also when the file holds no image. */
static uint64_t image_bytes(const struct idx_header *header)
{
    return (uint64_t)header->dimensions[1] * header->dimensions[2];
}

struct image_output {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    int features;
    enum element_type type;
    struct block *block;
    uint64_t done; /* images written, every split */
};

/* Writes COUNT images of PIXELS at row FIRST, converted to the output's type. */
static int write_images(struct image_output *output, const unsigned char *pixels, uint64_t count,
                        uint64_t image_size, uint64_t first)
{
    const void *data = pixels;
    if (output->block->converted != NULL) {
        convert_pixels(pixels, (size_t)(count * image_size), output->type,
                       output->block->converted);
        data = output->block->converted;
    }
    int result = h5py_writer_write(output->writer, output->features, first, count, data);
    output->done += count;
    converter_report_done(output->arguments, output->done);
    return result;
}

static int copy_images(struct image_output *output, struct split_input *input, uint64_t first)
{
    struct block *block = output->block;
    uint64_t image_size = image_bytes(&input->image_header);
    uint64_t remaining = input->image_header.dimensions[0];
    while (remaining > 0) {
        uint64_t count = remaining < block->images ? remaining : block->images;
        int result = idx_read(input->images, block->pixels, (size_t)(count * image_size));
        if (result == EXIT_OK)
            result = write_images(output, block->pixels, count, image_size, first);
        if (result != EXIT_OK)
            return result;
        first += count;
        remaining -= count;
    }
    return idx_finish(input->images);
}

static int fill_images(void *reader, void *block, size_t size)
{
    return idx_read(reader, block, size);
}

/* Both image files inflate at once, each in its own thread, while this one converts and writes
   their blocks in turn (at their own rows: the file is the same whatever the order). */
static int copy_images_together(struct image_output *output, struct split_input inputs[SPLIT_COUNT])
{
    struct read_ahead *aheads[SPLIT_COUNT] = {NULL};
    uint64_t rows[SPLIT_COUNT], remaining[SPLIT_COUNT];
    uint64_t image_size = image_bytes(&inputs[0].image_header);
    int result = EXIT_OK;
    for (int split = 0; split < SPLIT_COUNT; split++) {
        rows[split] = split == 0 ? 0 : inputs[0].image_header.dimensions[0];
        remaining[split] = inputs[split].image_header.dimensions[0];
        if (result == EXIT_OK)
            result = read_ahead_start(&aheads[split], fill_images, inputs[split].images,
                                      (size_t)(output->block->images * image_size),
                                      remaining[split] * image_size);
    }
    while (result == EXIT_OK && remaining[0] + remaining[1] > 0)
        for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
            if (remaining[split] == 0)
                continue;
            const unsigned char *pixels;
            size_t size;
            result = read_ahead_next(aheads[split], &pixels, &size);
            uint64_t count = size / image_size;
            if (result == EXIT_OK)
                result = write_images(output, pixels, count, image_size, rows[split]);
            rows[split] += count;
            remaining[split] -= count;
        }
    for (int split = 0; split < SPLIT_COUNT; split++)
        read_ahead_end(aheads[split]);
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++)
        result = idx_finish(inputs[split].images);
    return result;
}

static int copy_labels(struct h5py_writer *writer, int targets, struct split_input *input,
                       uint64_t first, struct block *block)
{
    uint64_t remaining = input->label_header.dimensions[0];
    uint64_t capacity = BLOCK_BYTES;
    while (remaining > 0) {
        uint64_t count = remaining < capacity ? remaining : capacity;
        int result = idx_read(input->labels, block->pixels, (size_t)count);
        if (result == EXIT_OK)
            result = h5py_writer_write(writer, targets, first, count, block->pixels);
        if (result != EXIT_OK)
            return result;
        first += count;
        remaining -= count;
    }
    return idx_finish(input->labels);
}

static int allocate_block(struct block *block, const struct split_input *input,
                          enum element_type type)
{
    uint64_t image_size = image_bytes(&input->image_header);
    block->images = BLOCK_BYTES / image_size > 0 ? BLOCK_BYTES / image_size : 1;
    block->pixels = malloc(block->images * image_size > BLOCK_BYTES ? block->images * image_size
                                                                    : BLOCK_BYTES);
    block->converted = NULL;
    if (type != ELEMENT_UINT8)
        block->converted = malloc(block->images * image_size * element_size(type));
    if (block->pixels == NULL || (type != ELEMENT_UINT8 && block->converted == NULL))
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    return EXIT_OK;
}

static int copy_splits(const struct converter_arguments *arguments, struct h5py_writer *writer,
                       struct split_input inputs[SPLIT_COUNT], enum element_type type,
                       int features, int targets)
{
    struct block block = {0};
    int result = allocate_block(&block, &inputs[0], type);
    struct image_output output = {arguments, writer, features, type, &block, 0};
    uint64_t total = (uint64_t)inputs[0].image_header.dimensions[0] +
                     inputs[1].image_header.dimensions[0];
    converter_report_stage(arguments, "images", total);
    bool together = arguments->threads > 1 && total > 0;
    if (result == EXIT_OK && together)
        result = copy_images_together(&output, inputs);
    uint64_t first = 0;
    for (int split = 0; !together && result == EXIT_OK && split < SPLIT_COUNT; split++) {
        if (inputs[split].image_header.dimensions[0] > 0)
            result = copy_images(&output, &inputs[split], first);
        first += inputs[split].image_header.dimensions[0];
    }
    first = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        uint64_t count = inputs[split].image_header.dimensions[0];
        if (count > 0)
            result = copy_labels(writer, targets, &inputs[split], first, &block);
        if (result == EXIT_OK)
            result = h5py_writer_add_split(writer, split_names[split], NULL, first, first + count);
        first += count;
    }
    free(block.pixels);
    free(block.converted);
    return result;
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    struct split_input inputs[SPLIT_COUNT] = {0};
    enum element_type type = feature_type(chosen_dtype(arguments));
    int features = -1, targets = -1;
    int result = EXIT_OK;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++)
        result = open_split(arguments, split, &inputs[split]);
    if (result == EXIT_OK)
        result = check_same_image_size(inputs);
    if (result == EXIT_OK)
        result = declare_sources(writer, inputs, type, &features, &targets);
    if (result == EXIT_OK)
        result = copy_splits(arguments, writer, inputs, type, features, targets);
    for (int split = 0; split < SPLIT_COUNT; split++) {
        idx_close(inputs[split].images);
        idx_close(inputs[split].labels);
    }
    return result;
}

/* MNIST's and Fashion-MNIST's converter: the same inputs, option and loop. */
#define IDX_CONVERTER(description)                                                               \
    {                                                                                            \
        .summary = description,                                                                  \
        .inputs = {MNIST_TRAIN_IMAGES, MNIST_TRAIN_LABELS, MNIST_TEST_IMAGES, MNIST_TEST_LABELS}, \
        .input_count = MNIST_FILE_COUNT, .options = options, .option_count = 1,                  \
        .options_size = sizeof(struct idx_options), .option_defaults = &option_defaults,         \
        .output_name = name_output, .convert = convert,                                          \
    }

const struct converter mnist_converter =
    IDX_CONVERTER("MNIST handwritten digits (4 IDX files) into mnist.hdf5");

const struct converter fashion_mnist_converter =
    IDX_CONVERTER("Fashion-MNIST (MNIST's file names and layout) into fashion_mnist.hdf5");
