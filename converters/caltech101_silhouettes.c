/* CalTech 101 Silhouettes' converter: caltech101_silhouettes_{16,28}_split1.mat (MATLAB v5) into
   features (N, 1, S, S) and targets (N, 1), splits train, valid, test, as Fuel writes them: in
   the types scipy.io.loadmat returns, which are those the file stores (MATLAB keeps its 0/1 and
   label doubles as uint8), each S*S row of train_data, val_data, test_data reshaped in C order,
   the labels unchanged; the file's classnames (a cell of strings) become the card's class
   names. */
#include "converter.h"
#include "downloaders/caltech101_silhouettes.h"

#include "common/base/error.h"
#include "common/formats/matlab/matlab_v5_read.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPLIT_COUNT CALTECH101_SILHOUETTES_SPLITS
#define CHUNK_ELEMENTS 4096
/* The rows of features gathered per pass over a column-major variable: the real files need one. */
#define BLOCK_BYTES (16u << 20)

static const struct caltech101_silhouettes_split *const splits = caltech101_silhouettes_splits;

struct silhouettes_layout {
    uint64_t side;
};

struct silhouettes_input {
    const char *path;
    struct matlab_file *file;
    uint64_t side;
    uint64_t counts[SPLIT_COUNT];
    enum matlab_class data_class, label_class;
};

struct silhouettes_output {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    int features, targets;
    unsigned char *block;
    unsigned char chunk[CHUNK_ELEMENTS * 8];
};

static int wrong(const struct silhouettes_input *input, const char *why, const char *name)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot convert CalTech 101 Silhouettes: %s: %s%s",
                     input->path, why, name);
}

/* Moves to NAME, a real numeric array of ROWS x COLUMNS (ROWS 0: any). */
static int find_array(struct silhouettes_input *input, const char *name, uint64_t rows,
                      uint64_t columns, struct matlab_variable *variable)
{
    bool found;
    int status = matlab_find(input->file, name, variable, &found);
    if (status != EXIT_OK)
        return status;
    if (!found)
        return wrong(input, "no variable ", name);
    if (matlab_class_size(variable->class_id) == 0 || variable->complex)
        return wrong(input, "not a real numeric array: ", name);
    const uint64_t *dimensions = variable->dimensions;
    if (variable->rank == 2 && dimensions[1] == columns && (rows == 0 || dimensions[0] == rows))
        return EXIT_OK;
    char expected[64];
    if (rows == 0)
        snprintf(expected, sizeof expected, "Nx%llu", (unsigned long long)columns);
    else
        snprintf(expected, sizeof expected, "%llux%llu", (unsigned long long)rows,
                 (unsigned long long)columns);
    return error_set(EXIT_CORRUPT_INPUT,
                     "cannot convert CalTech 101 Silhouettes: %s: %s is %llux%llu (rank %d), "
                     "expected %s",
                     input->path, name, (unsigned long long)dimensions[0],
                     (unsigned long long)dimensions[1], variable->rank, expected);
}


static bool element_of(enum matlab_class class_id, enum element_type *type)
{
    static const struct {
        enum matlab_class class_id;
        enum element_type type;
    } types[] = {
        {MATLAB_DOUBLE, ELEMENT_FLOAT64}, {MATLAB_SINGLE, ELEMENT_FLOAT32},
        {MATLAB_INT8, ELEMENT_INT8},      {MATLAB_UINT8, ELEMENT_UINT8},
        {MATLAB_INT16, ELEMENT_INT16},    {MATLAB_UINT16, ELEMENT_UINT16},
        {MATLAB_INT32, ELEMENT_INT32},    {MATLAB_UINT32, ELEMENT_UINT32},
        {MATLAB_INT64, ELEMENT_INT64},    {MATLAB_UINT64, ELEMENT_UINT64},
    };
    for (size_t index = 0; index < sizeof types / sizeof types[0]; index++)
        if (types[index].class_id == class_id) {
            *type = types[index].type;
            return true;
        }
    return false;
}

static const char *dtype_of(enum matlab_class class_id)
{
    enum element_type type;
    return element_of(class_id, &type) ? element_type_dtype(type) : "?";
}

/* Fuel concatenates a source's splits, which must share one dtype: STORED, that of split SPLIT's
   variable NAME, must be *KEPT, that of the first split's FIRST_NAME. */
static int same_type(const struct silhouettes_input *input, size_t split, const char *name,
                     const char *first_name, enum matlab_class stored, enum matlab_class *kept)
{
    if (split == 0)
        *kept = stored;
    if (stored == *kept)
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT,
                     "cannot convert CalTech 101 Silhouettes: %s: %s is stored as %s but %s as %s: "
                     "the splits of a source share one dtype",
                     input->path, name, dtype_of(stored), first_name, dtype_of(*kept));
}

/* Finds each split's data (N x S*S) and labels (N x 1) and records N and the stored types. */
static int inspect(struct silhouettes_input *input)
{
    uint64_t pixels = input->side * input->side;
    for (size_t split = 0; split < SPLIT_COUNT; split++) {
        struct matlab_variable data, labels;
        int status = find_array(input, splits[split].data, 0, pixels, &data);
        if (status == EXIT_OK)
            status = find_array(input, splits[split].labels, data.dimensions[0], 1, &labels);
        if (status == EXIT_OK)
            status = same_type(input, split, splits[split].data, splits[0].data,
                               data.stored_class, &input->data_class);
        if (status == EXIT_OK)
            status = same_type(input, split, splits[split].labels, splits[0].labels,
                               labels.stored_class, &input->label_class);
        if (status != EXIT_OK)
            return status;
        input->counts[split] = data.dimensions[0];
    }
    return EXIT_OK;
}

/* Moves to a variable inspect() checked, which must not have changed since. */
static int find_again(struct silhouettes_input *input, const char *name, uint64_t rows,
                      uint64_t columns, enum matlab_class stored)
{
    struct matlab_variable variable;
    int status = find_array(input, name, rows, columns, &variable);
    if (status == EXIT_OK && variable.stored_class != stored)
        status = wrong(input, "changed while being converted: ", name);
    return status;
}

/* Reads all of SPLIT's column-major data and keeps rows [START, START + ROWS) in the block,
   each row's S*S values in their MATLAB column order, as numpy's C-order reshape takes them. */
static int gather_rows(struct silhouettes_output *output, struct silhouettes_input *input,
                       size_t split, uint64_t start, uint64_t rows)
{
    uint64_t count = input->counts[split], pixels = input->side * input->side;
    size_t size = matlab_class_size(input->data_class);
    int status = find_again(input, splits[split].data, count, pixels, input->data_class);
    uint64_t row = 0, column = 0;
    for (uint64_t done = 0; status == EXIT_OK && done < count * pixels;) {
        uint64_t part = count * pixels - done < CHUNK_ELEMENTS ? count * pixels - done
                                                               : CHUNK_ELEMENTS;
        status = matlab_read_stored(input->file, output->chunk, part);
        for (uint64_t element = 0; status == EXIT_OK && element < part; element++) {
            if (row >= start && row - start < rows)
                memcpy(output->block + ((row - start) * pixels + column) * size,
                       output->chunk + element * size, size);
            if (++row == count) {
                row = 0;
                column++;
            }
        }
        done += part;
    }
    return status;
}

static uint64_t rows_per_pass(const struct silhouettes_input *input)
{
    uint64_t row_bytes = input->side * input->side * matlab_class_size(input->data_class);
    return BLOCK_BYTES / row_bytes > 0 ? BLOCK_BYTES / row_bytes : 1;
}

static int write_features(struct silhouettes_output *output, struct silhouettes_input *input,
                          size_t split, uint64_t first)
{
    uint64_t count = input->counts[split], block = rows_per_pass(input);
    for (uint64_t start = 0; start < count; start += block) {
        uint64_t rows = count - start < block ? count - start : block;
        int status = gather_rows(output, input, split, start, rows);
        if (status == EXIT_OK)
            status = h5py_writer_write(output->writer, output->features, first + start, rows,
                                       output->block);
        if (status != EXIT_OK)
            return status;
        converter_report_done(output->arguments, start + rows);
    }
    return EXIT_OK;
}

static int write_labels(struct silhouettes_output *output, struct silhouettes_input *input,
                        size_t split, uint64_t first)
{
    uint64_t count = input->counts[split];
    int status = find_again(input, splits[split].labels, count, 1, input->label_class);
    for (uint64_t done = 0; status == EXIT_OK && done < count;) {
        uint64_t part = count - done < CHUNK_ELEMENTS ? count - done : CHUNK_ELEMENTS;
        status = matlab_read_stored(input->file, output->chunk, part);
        if (status == EXIT_OK)
            status = h5py_writer_write(output->writer, output->targets, first + done, part,
                                       output->chunk);
        done += part;
    }
    return status;
}

/* The file's classnames, a cell of strings, when it has them: the card's names of targets, whose
   labels count from 1 as MATLAB does (label L is the L-th string; class 0 has no name). Python
   Fuel does not read them, so a file without them converts as before. */
static int card_classes(const struct converter_arguments *arguments,
                        struct silhouettes_input *input)
{
    struct matlab_variable variable;
    bool found;
    int status = matlab_find(input->file, CALTECH101_SILHOUETTES_CLASS_NAMES, &variable, &found);
    if (status != EXIT_OK || !found)
        return status;
    if (variable.class_id != MATLAB_CELL || variable.count > CALTECH101_SILHOUETTES_MAX_CLASSES)
        return wrong(input, "not a cell array of at most 65535 strings: ",
                     CALTECH101_SILHOUETTES_CLASS_NAMES);
    status = converter_card_name_append(arguments, "classes", "targets", NULL);
    for (uint64_t class = 0; status == EXIT_OK && class < variable.count; class++) {
        struct matlab_variable name;
        char text[256];
        size_t length;
        status = matlab_child(input->file, &name, &found);
        if (status == EXIT_OK && (!found || name.class_id != MATLAB_CHAR))
            return wrong(input, "not a cell array of strings: ", CALTECH101_SILHOUETTES_CLASS_NAMES);
        if (status == EXIT_OK)
            status = matlab_read_text(input->file, text, sizeof text, &length);
        if (status == EXIT_OK)
            status = converter_card_name_append(arguments, "classes", "targets", text);
    }
    return status;
}

static int declare_sources(struct silhouettes_output *output, const struct silhouettes_input *input,
                           uint64_t total)
{
    struct h5py_source_declaration features = {
        .name = "features", .rank = 4, .shape = {total, 1, input->side, input->side},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    struct h5py_source_declaration targets = {
        .name = "targets", .rank = 2, .shape = {total, 1}, .axis_labels = {"batch", "index"},
    };
    element_of(input->data_class, &features.type);
    element_of(input->label_class, &targets.type);
    int status = h5py_writer_add_source(output->writer, &features, &output->features);
    return status == EXIT_OK ? h5py_writer_add_source(output->writer, &targets, &output->targets)
                             : status;
}

static int write_splits(struct silhouettes_output *output, struct silhouettes_input *input)
{
    uint64_t total = 0, largest = 0;
    for (size_t split = 0; split < SPLIT_COUNT; split++) {
        total += input->counts[split];
        largest = input->counts[split] > largest ? input->counts[split] : largest;
    }
    uint64_t rows = largest < rows_per_pass(input) ? largest : rows_per_pass(input);
    output->block = malloc(rows * input->side * input->side * matlab_class_size(input->data_class) + 1);
    if (output->block == NULL)
        return error_set(EXIT_OTHER, "cannot convert CalTech 101 Silhouettes: out of memory");
    int status = declare_sources(output, input, total);
    for (uint64_t first = 0, split = 0; status == EXIT_OK && split < SPLIT_COUNT; split++) {
        converter_report_stage(output->arguments, splits[split].name, input->counts[split]);
        status = write_features(output, input, split, first);
        if (status == EXIT_OK)
            status = write_labels(output, input, split, first);
        if (status == EXIT_OK)
            status = h5py_writer_add_split(output->writer, splits[split].name, NULL, first,
                                           first + input->counts[split]);
        first += input->counts[split];
    }
    return status;
}

static int silhouettes_convert(const struct converter_arguments *arguments,
                               struct h5py_writer *writer)
{
    const struct silhouettes_layout *layout = arguments->dataset->converter->layout;
    char path[PATH_MAX];
    converter_input_path(arguments, CALTECH101_SILHOUETTES_MAT, path, sizeof path);
    struct silhouettes_input input = {.path = path, .side = layout->side};
    int status = matlab_open(&input.file, path);
    if (status != EXIT_OK)
        return status;
    struct silhouettes_output *output = calloc(1, sizeof *output);
    if (output == NULL)
        status = error_set(EXIT_OTHER, "cannot convert CalTech 101 Silhouettes: out of memory");
    if (status == EXIT_OK)
        status = inspect(&input);
    if (status == EXIT_OK)
        status = card_classes(arguments, &input);
    if (status == EXIT_OK) {
        *output = (struct silhouettes_output){.arguments = arguments, .writer = writer};
        status = write_splits(output, &input);
        free(output->block);
    }
    free(output);
    matlab_close(input.file);
    return status;
}

static const struct silhouettes_layout side_16 = {16}, side_28 = {28};

const struct converter caltech101_silhouettes_16_converter = {
    .summary = "CalTech 101 Silhouettes 16x16 (a MATLAB file) into caltech101_silhouettes16.hdf5",
    .inputs = {CALTECH101_SILHOUETTES_MAT},
    .input_count = CALTECH101_SILHOUETTES_FILE_COUNT,
    .output_file = "caltech101_silhouettes16.hdf5",
    .convert = silhouettes_convert,
    .layout = &side_16,
};

const struct converter caltech101_silhouettes_28_converter = {
    .summary = "CalTech 101 Silhouettes 28x28 (a MATLAB file) into caltech101_silhouettes28.hdf5",
    .inputs = {CALTECH101_SILHOUETTES_MAT},
    .input_count = CALTECH101_SILHOUETTES_FILE_COUNT,
    .output_file = "caltech101_silhouettes28.hdf5",
    .convert = silhouettes_convert,
    .layout = &side_28,
};
