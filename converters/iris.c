/* Iris's converter: UCI's iris.data (four measurements and a class name a line;
   downloaders/iris.c) into features and targets. */
#include "converter.h"
#include "downloaders/iris.h"

#include "converters/class_rows_read.h"
#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FEATURES = 4 };


struct examples {
    float *features;
    unsigned char *targets;
    uint64_t count;
    uint64_t capacity;
};

static int class_index(const char *name)
{
    for (int index = 0; index < IRIS_SPECIES; index++)
        if (strcmp(iris_species[index], name) == 0)
            return index;
    return -1;
}

static int grow(struct examples *examples)
{
    if (examples->count < examples->capacity)
        return EXIT_OK;
    uint64_t capacity = examples->capacity ? 2 * examples->capacity : 256;
    float *features = realloc(examples->features, (size_t)capacity * FEATURES * sizeof *features);
    if (features != NULL)
        examples->features = features;
    unsigned char *targets = features ? realloc(examples->targets, (size_t)capacity) : NULL;
    if (targets == NULL)
        return error_set(EXIT_OTHER, "cannot read iris.data: out of memory");
    examples->targets = targets;
    examples->capacity = capacity;
    return EXIT_OK;
}

static int add_example(struct examples *examples, const double values[FEATURES], const char *name,
                       const char *path, unsigned long line)
{
    int target = class_index(name);
    if (target < 0)
        return error_set(EXIT_CORRUPT_INPUT, "unknown class: %s:%lu: '%.40s'", path, line, name);
    int result = grow(examples);
    if (result != EXIT_OK)
        return result;
    for (int feature = 0; feature < FEATURES; feature++)
        examples->features[examples->count * FEATURES + feature] = (float)values[feature];
    examples->targets[examples->count++] = (unsigned char)target;
    return EXIT_OK;
}

static int read_examples(const char *path, struct examples *examples)
{
    struct class_row_reader *reader;
    int result = class_rows_open(&reader, path, FEATURES);
    bool read = result == EXIT_OK;
    while (result == EXIT_OK && read) {
        double values[FEATURES];
        const char *name;
        unsigned long line;
        result = class_rows_next(reader, values, &name, &line, &read);
        if (result == EXIT_OK && read)
            result = add_example(examples, values, name, path, line);
    }
    class_rows_close(reader);
    return result;
}

static int write_examples(struct h5py_writer *writer, const struct examples *examples)
{
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_FLOAT32, .rank = 2, .shape = {examples->count, FEATURES},
        .axis_labels = {"batch", "feature"},
    };
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_UINT8, .rank = 2, .shape = {examples->count, 1},
        .axis_labels = {"batch", "index"},
    };
    int feature_source, target_source;
    int result = h5py_writer_add_source(writer, &features, &feature_source);
    if (result == EXIT_OK)
        result = h5py_writer_add_source(writer, &targets, &target_source);
    if (result == EXIT_OK && examples->count > 0)
        result = h5py_writer_write(writer, feature_source, 0, examples->count, examples->features);
    if (result == EXIT_OK && examples->count > 0)
        result = h5py_writer_write(writer, target_source, 0, examples->count, examples->targets);
    if (result == EXIT_OK)
        result = h5py_writer_add_split(writer, IRIS_SPLIT, NULL, 0, examples->count);
    return result;
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    char path[4096];
    converter_input_path(arguments, IRIS_DATA, path, sizeof path);
    struct examples examples = {0};
    int result = read_examples(path, &examples);
    if (result == EXIT_OK)
        result = write_examples(writer, &examples);
    free(examples.features);
    free(examples.targets);
    return result;
}

const struct converter iris_converter = {
    .summary = "Fisher's iris measurements (UCI iris.data) into iris.hdf5",
    .inputs = {IRIS_DATA},
    .input_count = IRIS_FILE_COUNT,
    .output_file = "iris.hdf5",
    .convert = convert,
};
