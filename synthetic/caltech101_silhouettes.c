/* CalTech 101 Silhouettes raw fixture: caltech101_silhouettes_{16,28}_split1.mat, MATLAB v5
   compressed, as MATLAB saves the real ones: train_data, val_data, test_data N x S*S doubles of
   0 and 1 (each row an S x S picture in MATLAB's column order: a filled ellipse of 1 on 0) and
   train_labels, val_labels, test_labels N x 1 doubles of 1-101, all stored as uint8. */
#include "fixture.h"
#include "downloaders/caltech101_silhouettes.h"
#include "common/formats/fixture_marker.h"
#include "common/formats/matlab_v5_writer.h"

#include "common/base/error.h"
#include "common/base/random.h"

#include <stdlib.h>

static const char *const splits[] = {"train", "valid", "test"};
static const char *const data_names[] = {"train_data", "val_data", "test_data"};
static const char *const label_names[] = {"train_labels", "val_labels", "test_labels"};

struct ellipse {
    double row, column, height, width; /* centre and half-axes, in pixels */
};

static void ellipse_draw(struct random_state *random, uint32_t side, struct ellipse *ellipse)
{
    ellipse->row = side * random_between(random, 0.35, 0.65);
    ellipse->column = side * random_between(random, 0.35, 0.65);
    ellipse->height = side * random_between(random, 0.15, 0.45);
    ellipse->width = side * random_between(random, 0.15, 0.45);
}

static uint8_t ellipse_pixel(const struct ellipse *ellipse, uint32_t row, uint32_t column)
{
    double y = (row + 0.5 - ellipse->row) / ellipse->height;
    double x = (column + 0.5 - ellipse->column) / ellipse->width;
    return x * x + y * y <= 1.0;
}

/* NAME, COUNT x SIDE*SIDE: column k of the matrix holds pixel (k % SIDE, k / SIDE) of each. */
static int data_write(struct matlab_writer *writer, const char *name, const struct ellipse *shapes,
                      uint32_t count, uint32_t side, uint8_t *column)
{
    uint32_t dimensions[2] = {count, side * side};
    int result = matlab_writer_begin(writer, name, MATLAB_WRITE_DOUBLE_AS_UINT8, dimensions, 2);
    for (uint32_t pixel = 0; result == EXIT_OK && pixel < side * side; pixel++) {
        for (uint32_t example = 0; example < count; example++)
            column[example] = ellipse_pixel(&shapes[example], pixel % side, pixel / side);
        result = matlab_writer_data(writer, column, count);
    }
    return result == EXIT_OK ? matlab_writer_end(writer) : result;
}

static int split_write(struct matlab_writer *writer, const struct fixture_request *request,
                       size_t split, uint32_t side, struct ellipse *shapes, uint8_t *bytes)
{
    uint32_t count = (uint32_t)request->examples[split], dimensions[2] = {count, 1};
    struct random_state random;
    random_seed(&random, request->seed, split);
    for (uint32_t example = 0; example < count; example++) {
        ellipse_draw(&random, side, &shapes[example]);
        bytes[example] = (uint8_t)(1 + random_below(&random, 101));
    }
    int result = matlab_writer_begin(writer, label_names[split], MATLAB_WRITE_DOUBLE_AS_UINT8,
                                     dimensions, 2);
    if (result == EXIT_OK)
        result = matlab_writer_data(writer, bytes, count);
    if (result == EXIT_OK)
        result = matlab_writer_end(writer);
    return result == EXIT_OK ? data_write(writer, data_names[split], shapes, count, side, bytes)
                             : result;
}

static int silhouettes_write(const struct fixture_request *request, const char *directory)
{
    uint32_t side = request->dataset == &caltech101_silhouettes_16_dataset ? 16 : 28;
    uint64_t largest = 0;
    for (size_t split = 0; split < 3; split++)
        largest = request->examples[split] > largest ? request->examples[split] : largest;
    char path[4096];
    fixture_file_path(request, CALTECH101_SILHOUETTES_MAT, directory, path, sizeof path);
    struct ellipse *shapes = malloc(largest * sizeof *shapes + 1);
    uint8_t *bytes = malloc(largest + 1);
    struct matlab_writer writer;
    int result = shapes == NULL || bytes == NULL
                     ? error_set(EXIT_OTHER, "cannot write: %s: out of memory", path)
                     : matlab_writer_open(&writer, path, FIXTURE_MATLAB_TEXT);
    if (shapes != NULL && bytes != NULL && result == EXIT_OK) {
        for (size_t split = 0; result == EXIT_OK && split < 3; split++)
            result = split_write(&writer, request, split, side, shapes, bytes);
        int closed = matlab_writer_close(&writer);
        result = result != EXIT_OK ? result : closed;
    }
    free(shapes);
    free(bytes);
    return result;
}

const struct raw_fixture caltech101_silhouettes_16_fixture = {
    .dataset = &caltech101_silhouettes_16_dataset, .splits = splits, .split_count = 3,
    .write = silhouettes_write,
};

const struct raw_fixture caltech101_silhouettes_28_fixture = {
    .dataset = &caltech101_silhouettes_28_dataset, .splits = splits, .split_count = 3,
    .write = silhouettes_write,
};
