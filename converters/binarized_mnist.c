/* Binarized MNIST's converter: its three .amat text files (train, valid, test;
   downloaders/binarized_mnist.c) into features (N,1,28,28) uint8. */
#include "converter.h"
#include "downloaders/binarized_mnist.h"

#include "common/base/error.h"
#include "converters/amat_read.h"
#include "common/formats/spool.h"

#include <stdio.h>
#include <stdlib.h>

enum { SPLIT_COUNT = 3, SIDE = 28, PIXELS = SIDE * SIDE, BLOCK_ROWS = 1024 };

static const char *const split_names[SPLIT_COUNT] = BINARIZED_MNIST_SPLITS;

/* Each split's file, in the order of the splits. */
static const enum binarized_mnist_file split_files[SPLIT_COUNT] = {
    BINARIZED_MNIST_TRAIN, BINARIZED_MNIST_VALID, BINARIZED_MNIST_TEST};

/* The dataset needs its row count up front, and a text row is only known once parsed: each file
   is parsed once, its rows going block by block to an unlinked scratch file (784 bytes a row),
   then copied from there into place. */
static int spool_rows(const struct converter_arguments *arguments, const char *path,
                      struct spool *spool, unsigned char *block, uint64_t *count)
{
    struct amat_reader *reader;
    int result = amat_open(&reader, path, PIXELS);
    bool read = result == EXIT_OK;
    *count = 0;
    converter_report_stage(arguments, path, 0);
    while (result == EXIT_OK && read) {
        uint64_t rows = 0;
        while (result == EXIT_OK && read && rows < BLOCK_ROWS) {
            result = amat_next(reader, block + rows * PIXELS, &read);
            rows += read;
        }
        if (result == EXIT_OK && rows > 0)
            result = spool_append(spool, block, (size_t)(rows * PIXELS), NULL);
        *count += rows;
        converter_report_done(arguments, *count);
    }
    amat_close(reader);
    return result;
}

static int copy_rows(struct spool *spool, struct h5py_writer *writer, int features,
                     uint64_t count, unsigned char *block)
{
    for (uint64_t first = 0; first < count;) {
        uint64_t rows = count - first < BLOCK_ROWS ? count - first : BLOCK_ROWS;
        int result = spool_read(spool, first * PIXELS, block, (size_t)(rows * PIXELS));
        if (result == EXIT_OK)
            result = h5py_writer_write(writer, features, first, rows, block);
        if (result != EXIT_OK)
            return result;
        first += rows;
    }
    return EXIT_OK;
}

static int write_splits(struct spool *spool, struct h5py_writer *writer,
                        const uint64_t counts[SPLIT_COUNT], unsigned char *block)
{
    uint64_t total = counts[0] + counts[1] + counts[2];
    struct h5py_source_declaration source = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4, .shape = {total, 1, SIDE, SIDE},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    int features;
    int result = h5py_writer_add_source(writer, &source, &features);
    if (result == EXIT_OK)
        result = copy_rows(spool, writer, features, total, block);
    uint64_t first = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        result = h5py_writer_add_split(writer, split_names[split], NULL, first,
                                       first + counts[split]);
        first += counts[split];
    }
    return result;
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    unsigned char *block = malloc((size_t)BLOCK_ROWS * PIXELS);
    if (block == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    struct spool *spool = NULL;
    uint64_t counts[SPLIT_COUNT];
    int result = spool_create(&spool, arguments->scratch_directory);
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        char path[4096];
        converter_input_path(arguments, split_files[split], path, sizeof path);
        result = spool_rows(arguments, path, spool, block, &counts[split]);
    }
    if (result == EXIT_OK)
        result = write_splits(spool, writer, counts, block);
    spool_close(spool);
    free(block);
    return result;
}

const struct converter binarized_mnist_converter = {
    .summary = "binarized MNIST (three .amat text files) into binarized_mnist.hdf5",
    .inputs = {BINARIZED_MNIST_TRAIN, BINARIZED_MNIST_VALID, BINARIZED_MNIST_TEST},
    .input_count = BINARIZED_MNIST_FILE_COUNT,
    .output_file = "binarized_mnist.hdf5",
    .convert = convert,
};
