/* Dogs vs Cats: dogs_vs_cats.train.zip and dogs_vs_cats.test1.zip (JPEGs) into dogs_vs_cats.hdf5
   as Fuel 0.2 writes it: variable-length image_features (channel x height x width, uint8), their
   int32 shapes and shape labels, targets (train only, uint8, cat 0, dog 1); train in the order
   numpy's RandomState(123522).shuffle gives the archive's members, test sorted by number. */
#include "converter.h"
#include "downloaders/dogs_vs_cats.h"
#include "zip_images.h"

#include "common/base/error.h"
#include "common/base/numpy_random.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fuel shuffles zipfile's namelist()[1:]: the list without its first entry, which is the
   archive's directory entry (train/). Here every directory entry is passed over and the
   regular-file members are shuffled: the same list for the real archive, and no image dropped
   from an archive whose first entry is not a directory. */
#define SHUFFLE_SEED 123522u
/* A photo on its way: its buffers grow to the largest seen (most photos are at most 500 x 500,
   decoded and then made channel-major), about 3 MiB (measured by peak RSS). */
#define DOGS_JOB_BYTES (3u << 20)

enum { TRAIN, TEST, SPLIT_COUNT };

static const char *const split_names[SPLIT_COUNT] = DOGS_VS_CATS_SPLITS;

struct dogs_conversion {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    int features;
    int targets;
    struct zip_names names[SPLIT_COUNT];
    uint64_t *rows[SPLIT_COUNT]; /* each member's row within its split, by its index */
    int split;                   /* the split being written */
    uint64_t offset;             /* its first row */
};

static const enum dogs_vs_cats_file split_files[SPLIT_COUNT] = {DOGS_VS_CATS_TRAIN,
                                                                DOGS_VS_CATS_TEST};

static const char *base_name(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash != NULL ? slash + 1 : name;
}

/* Fuel labels by 'cat' in the member's name; Kaggle names them cat.N.jpg and dog.N.jpg. */
static int label_of(const char *path, const char *name, uint8_t *label)
{
    const char *base = base_name(name);
    if (strncmp(base, "cat.", 4) == 0 || strncmp(base, "dog.", 4) == 0) {
        *label = base[0] == 'd';
        return EXIT_OK;
    }
    return error_set(EXIT_CORRUPT_INPUT, "not a cat or dog image: %s: %s: its name starts with "
                     "neither cat. nor dog.", path, name);
}

/* Rows of the training members, by numpy's shuffle, and their labels in row order. */
static int place_train(struct dogs_conversion *conversion, const char *path, uint8_t *labels)
{
    size_t count = conversion->names[TRAIN].count;
    int64_t *order = malloc(count * sizeof *order);
    conversion->rows[TRAIN] = malloc(count * sizeof *conversion->rows[TRAIN]);
    if (order == NULL || conversion->rows[TRAIN] == NULL) {
        free(order);
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    }
    numpy_permutation(SHUFFLE_SEED, count, order);
    int result = EXIT_OK;
    for (size_t row = 0; result == EXIT_OK && row < count; row++) {
        size_t member = (size_t)order[row];
        conversion->rows[TRAIN][member] = row;
        result = label_of(path, zip_names_at(&conversion->names[TRAIN], member), &labels[row]);
    }
    free(order);
    return result;
}

struct numbered {
    uint64_t number;
    size_t member;
};

/* By number, then by the archive's order (Python's sort is stable). */
static int compare_numbered(const void *left, const void *right)
{
    const struct numbered *a = left, *b = right;
    if (a->number != b->number)
        return a->number < b->number ? -1 : 1;
    return a->member < b->member ? -1 : a->member > b->member;
}

/* Fuel sorts test1/N.jpg by int(N); N must be a decimal number before the extension. */
static int number_of(const char *path, const char *name, uint64_t *number)
{
    const char *base = base_name(name), *cursor = base;
    *number = 0;
    for (; *cursor >= '0' && *cursor <= '9' && cursor - base < 18; cursor++)
        *number = *number * 10 + (uint64_t)(*cursor - '0');
    if (cursor > base && *cursor == '.' && strchr(cursor + 1, '.') == NULL)
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT, "not a numbered test image: %s: %s: expected NUMBER.jpg",
                     path, name);
}

static int place_test(struct dogs_conversion *conversion, const char *path)
{
    size_t count = conversion->names[TEST].count;
    struct numbered *sorted = malloc(count * sizeof *sorted);
    conversion->rows[TEST] = malloc(count * sizeof *conversion->rows[TEST]);
    if (sorted == NULL || conversion->rows[TEST] == NULL) {
        free(sorted);
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    }
    int result = EXIT_OK;
    for (size_t member = 0; result == EXIT_OK && member < count; member++) {
        sorted[member].member = member;
        result = number_of(path, zip_names_at(&conversion->names[TEST], member),
                           &sorted[member].number);
    }
    if (result == EXIT_OK)
        qsort(sorted, count, sizeof *sorted, compare_numbered);
    for (size_t row = 0; result == EXIT_OK && row < count; row++)
        conversion->rows[TEST][sorted[row].member] = row;
    free(sorted);
    return result;
}

static int declare_sources(struct dogs_conversion *conversion, const uint8_t *labels)
{
    uint64_t train = conversion->names[TRAIN].count, test = conversion->names[TEST].count;
    struct h5py_source_declaration features = {
        .name = "image_features", .type = ELEMENT_UINT8, .rank = 1, .shape = {train + test},
        .axis_labels = {"batch"}, .variable_length = true, .example_rank = 3,
        .shape_labels = {"channel", "height", "width"}, .int32_shapes = true,
        .shape_labels_dataset = "image_features_shapes_labels"};
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_UINT8, .rank = 2, .shape = {train, 1},
        .axis_labels = {"batch", "index"}};
    struct h5py_writer *writer = conversion->writer;
    int result = h5py_writer_add_source(writer, &features, &conversion->features);
    if (result == EXIT_OK)
        result = h5py_writer_add_source(writer, &targets, &conversion->targets);
    if (result == EXIT_OK)
        result = h5py_writer_write(writer, conversion->targets, 0, train, labels);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, split_names[TRAIN], NULL, 0, train);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, split_names[TEST], "image_features", train,
                                       train + test);
    return result;
}

static int place_member(void *context, size_t index, const char *name, uint64_t *row, bool *keep)
{
    (void)name;
    struct dogs_conversion *conversion = context;
    *row = conversion->rows[conversion->split][index];
    *keep = true;
    return EXIT_OK;
}

static int decode_member(void *context, struct zip_image *image)
{
    (void)context;
    return zip_image_decode(image, false);
}

static int write_member(void *context, struct zip_image *image)
{
    struct dogs_conversion *conversion = context;
    const struct jpeg_image *pixels = &image->image;
    uint16_t shape[3] = {(uint16_t)pixels->channels, (uint16_t)pixels->height,
                         (uint16_t)pixels->width};
    return h5py_writer_write_variable(conversion->writer, conversion->features,
                                      conversion->offset + image->row, pixels->pixels, shape);
}

static int write_split(struct dogs_conversion *conversion, int split, const char *path)
{
    conversion->split = split;
    conversion->offset = split == TRAIN ? 0 : conversion->names[TRAIN].count;
    struct zip_images_pass pass = {
        .arguments = conversion->arguments, .path = path, .names = &conversion->names[split],
        .total = conversion->names[split].count, .job_bytes = DOGS_JOB_BYTES,
        .place = place_member, .decode = decode_member, .write = write_member,
        .context = conversion};
    return zip_images_run(&pass);
}

static int list_split(struct dogs_conversion *conversion, int split, const char *path)
{
    int result = zip_names_read(path, &conversion->names[split]);
    if (result == EXIT_OK && conversion->names[split].count == 0)
        result = error_set(EXIT_CORRUPT_INPUT, "no images: %s: the archive holds no file",
                           path);
    return result;
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    struct dogs_conversion conversion = {.arguments = arguments, .writer = writer};
    char paths[SPLIT_COUNT][4096];
    int result = EXIT_OK;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        converter_input_path(arguments, split_files[split], paths[split], sizeof paths[split]);
        result = list_split(&conversion, split, paths[split]);
    }
    uint8_t *labels = result == EXIT_OK ? malloc(conversion.names[TRAIN].count) : NULL;
    if (result == EXIT_OK && labels == NULL)
        result = error_set(EXIT_OTHER, "cannot convert: out of memory");
    if (result == EXIT_OK)
        result = place_train(&conversion, paths[TRAIN], labels);
    if (result == EXIT_OK)
        result = place_test(&conversion, paths[TEST]);
    if (result == EXIT_OK)
        result = declare_sources(&conversion, labels);
    free(labels);
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++)
        result = write_split(&conversion, split, paths[split]);
    for (int split = 0; split < SPLIT_COUNT; split++) {
        zip_names_free(&conversion.names[split]);
        free(conversion.rows[split]);
    }
    return result;
}

const struct converter dogs_vs_cats_converter = {
    .summary = "Dogs vs Cats: Kaggle's JPEGs into dogs_vs_cats.hdf5",
    .inputs = {DOGS_VS_CATS_TRAIN, DOGS_VS_CATS_TEST},
    .input_count = DOGS_VS_CATS_FILE_COUNT,
    .output_file = "dogs_vs_cats.hdf5",
    .convert = convert,
};
