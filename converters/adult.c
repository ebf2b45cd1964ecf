/* Adult's converter: UCI's adult.data and adult.test (downloaders/adult.c) into features float64
   (N, 6 continuous columns + one-hot categorical blocks, 104 for the real files) and targets bool
   (N, 1), train then test. Fuel numbers a column's values in the order of list(set(values)),
   which changes with Python's hash seed and differs between its splits; here each column's values
   are numbered in the sorted order of adult.data's and both splits use that numbering. Three
   streamed passes (learn the values, check the test rows, write), so memory stays a block of rows
   (4 MiB) and the vocabulary whatever the files' sizes. */
#include "adult_rows.h"
#include "converter.h"
#include "downloaders/adult.h"

#include "common/base/error.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The features rows written at once: 4 MiB, 5041 rows of the real files' 104 columns. */
#define BLOCK_BYTES (4u << 20)

static const char *const split_names[] = ADULT_SPLITS;
static const enum adult_file split_files[] = {ADULT_TRAIN, ADULT_TEST};

struct adult_output {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    struct adult_vocabulary vocabulary;
    size_t width;
    size_t offsets[ADULT_COLUMNS]; /* where each column's block begins in a features row */
    int features, targets;
    double *block;
    unsigned char *labels;
    size_t block_rows;
    /* The split being written. */
    uint64_t first, expected, done;
    size_t filled;
};

typedef int (*row_visitor)(struct adult_output *output, const char *path, unsigned long line,
                           const struct adult_row *row);

/* Hands every complete row of PATH to VISIT; *COUNT gets how many there were, at least one (a
   file without a complete row is no Adult file: the real ones hold 30,162 and 15,060). */
static int each_row(const char *path, row_visitor visit, struct adult_output *output,
                    uint64_t *count)
{
    struct field_row_reader *reader;
    int status = field_rows_open(&reader, path);
    *count = 0;
    while (status == EXIT_OK) {
        struct field_row row;
        struct adult_row parsed;
        bool read, missing;
        status = field_rows_next(reader, &row, &read);
        if (status != EXIT_OK || !read)
            break;
        status = adult_row_parse(reader, &row, &parsed, &missing);
        if (status == EXIT_OK && !missing) {
            status = visit(output, path, row.line, &parsed);
            (*count)++;
        }
    }
    field_rows_close(reader);
    if (status == EXIT_OK && *count == 0)
        status = error_set(EXIT_CORRUPT_INPUT, "malformed Adult file: %s: no complete row", path);
    return status;
}

static int learn(struct adult_output *output, const char *path, unsigned long line,
                 const struct adult_row *row)
{
    return adult_vocabulary_add(&output->vocabulary, row, path, line);
}

static int indices_of(const struct adult_output *output, const char *path, unsigned long line,
                      const struct adult_row *row, size_t *indices)
{
    for (size_t category = 0; category < ADULT_CATEGORICAL; category++) {
        int status = adult_vocabulary_index(&output->vocabulary, row, category, path, line,
                                            &indices[category]);
        if (status != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

static int check(struct adult_output *output, const char *path, unsigned long line,
                 const struct adult_row *row)
{
    size_t indices[ADULT_CATEGORICAL];
    return indices_of(output, path, line, row, indices);
}

static int flush(struct adult_output *output)
{
    if (output->filled == 0)
        return EXIT_OK;
    uint64_t first = output->first + output->done;
    int status = h5py_writer_write(output->writer, output->features, first, output->filled,
                                   output->block);
    if (status == EXIT_OK)
        status = h5py_writer_write(output->writer, output->targets, first, output->filled,
                                   output->labels);
    output->done += output->filled;
    output->filled = 0;
    converter_report_done(output->arguments, output->done);
    return status;
}

/* The continuous values as they are, each categorical value a 1 in its column's block. */
static int encode(struct adult_output *output, const char *path, unsigned long line,
                  const struct adult_row *row)
{
    size_t indices[ADULT_CATEGORICAL];
    int status = indices_of(output, path, line, row, indices);
    if (status != EXIT_OK)
        return status;
    if (output->done + output->filled == output->expected)
        return error_set(EXIT_CORRUPT_INPUT, "cannot convert Adult: %s: changed while being "
                         "converted", path);
    double *features = output->block + output->filled * output->width;
    memset(features, 0, output->width * sizeof *features);
    size_t continuous = 0, categorical = 0;
    for (size_t column = 0; column < ADULT_COLUMNS; column++)
        if (adult_column_continuous(column))
            features[output->offsets[column]] = row->continuous[continuous++];
        else
            features[output->offsets[column] + indices[categorical++]] = 1.0;
    output->labels[output->filled++] = row->above_50k;
    return output->filled == output->block_rows ? flush(output) : EXIT_OK;
}

static void lay_out_columns(struct adult_output *output)
{
    size_t categorical = 0;
    output->width = 0;
    for (size_t column = 0; column < ADULT_COLUMNS; column++) {
        output->offsets[column] = output->width;
        output->width += adult_column_continuous(column)
                             ? 1 : output->vocabulary.counts[categorical++];
    }
}

/* The card's names of the features' columns: "age", ..., "workclass=Federal-gov", ... */
static int name_columns(struct adult_output *output)
{
    size_t categorical = 0;
    int status = EXIT_OK;
    for (size_t column = 0; column < ADULT_COLUMNS && status == EXIT_OK; column++) {
        const char *name = adult_column_name(column);
        if (adult_column_continuous(column)) {
            status = converter_card_name_append(output->arguments, "feature_names", "features",
                                                name);
            continue;
        }
        for (size_t value = 0; value < output->vocabulary.counts[categorical] &&
                               status == EXIT_OK; value++) {
            char text[512];
            snprintf(text, sizeof text, "%s=%s", name,
                     output->vocabulary.values[categorical][value]);
            status = converter_card_name_append(output->arguments, "feature_names", "features",
                                                text);
        }
        categorical++;
    }
    return status;
}

static int declare_sources(struct adult_output *output, uint64_t total)
{
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_FLOAT64, .rank = 2, .shape = {total, output->width},
        .axis_labels = {"batch", "feature"},
    };
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_BOOL, .rank = 2, .shape = {total, 1},
        .axis_labels = {"batch", "index"},
    };
    int status = h5py_writer_add_source(output->writer, &features, &output->features);
    return status == EXIT_OK ? h5py_writer_add_source(output->writer, &targets, &output->targets)
                             : status;
}

static int write_split(struct adult_output *output, const char *path, uint64_t first,
                       uint64_t count, const char *split)
{
    output->first = first;
    output->expected = count;
    output->done = 0;
    output->filled = 0;
    converter_report_stage(output->arguments, path, count);
    uint64_t seen;
    int status = each_row(path, encode, output, &seen);
    if (status == EXIT_OK)
        status = flush(output);
    if (status == EXIT_OK && output->done != count)
        status = error_set(EXIT_CORRUPT_INPUT, "cannot convert Adult: %s: changed while being "
                           "converted", path);
    return status == EXIT_OK ? h5py_writer_add_split(output->writer, split, NULL, first,
                                                     first + count)
                             : status;
}

static int convert_rows(struct adult_output *output, char paths[][PATH_MAX])
{
    uint64_t counts[2];
    int status = each_row(paths[0], learn, output, &counts[0]);
    if (status == EXIT_OK)
        status = each_row(paths[1], check, output, &counts[1]);
    if (status != EXIT_OK)
        return status;
    lay_out_columns(output);
    output->block_rows = BLOCK_BYTES / (output->width * sizeof *output->block);
    output->block = malloc(output->block_rows * output->width * sizeof *output->block);
    output->labels = malloc(output->block_rows);
    if (output->block == NULL || output->labels == NULL)
        return error_set(EXIT_OTHER, "cannot convert Adult: out of memory");
    status = name_columns(output);
    if (status == EXIT_OK)
        status = declare_sources(output, counts[0] + counts[1]);
    for (size_t split = 0; status == EXIT_OK && split < 2; split++)
        status = write_split(output, paths[split], split == 0 ? 0 : counts[0], counts[split],
                             split_names[split]);
    return status;
}

static int adult_convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    char paths[2][PATH_MAX];
    for (size_t split = 0; split < 2; split++)
        converter_input_path(arguments, split_files[split], paths[split], sizeof paths[split]);
    struct adult_output output = {.arguments = arguments, .writer = writer};
    int status = convert_rows(&output, paths);
    free(output.block);
    free(output.labels);
    adult_vocabulary_free(&output.vocabulary);
    return status;
}

const struct converter adult_converter = {
    .summary = "UCI Adult census rows (adult.data, adult.test) into adult.hdf5",
    .inputs = {ADULT_TRAIN, ADULT_TEST},
    .input_count = ADULT_FILE_COUNT,
    .output_file = "adult.hdf5",
    .convert = adult_convert,
};
