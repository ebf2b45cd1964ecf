/* SVHN format 2: {train,test,extra}_32x32.mat (MATLAB level 5, cropped 32x32 digits) from
   Stanford into svhn_format_2.hdf5. */
#include "converter.h"
#include "downloaders/svhn.h"

#include "common/base/error.h"
#include "common/formats/matlab/matlab_v5_read.h"
#include "common/formats/read_ahead.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#define SPLIT_COUNT 3
#define SIDE 32
#define CHANNELS 3
#define IMAGE_SIZE (SIDE * SIDE * CHANNELS)
#define BLOCK_IMAGES 256
#define BLOCK_LABELS 4096
#define LANE_COUNT 2

static const char *const split_names[SPLIT_COUNT] = SVHN_SPLITS;

/* Each split's file, in the order of the splits. */
static const enum svhn_format_2_file split_files[SPLIT_COUNT] = {
    SVHN_FORMAT_2_TRAIN, SVHN_FORMAT_2_TEST, SVHN_FORMAT_2_EXTRA};

struct split_input {
    char path[PATH_MAX];
    uint64_t count;
};

struct svhn_output {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    const struct split_input *inputs;
    uint64_t firsts[SPLIT_COUNT]; /* each split's first row */
    uint64_t written;             /* images written, every split's */
    int features;
    int targets;
    unsigned char *transposed;  /* BLOCK_IMAGES features rows: [channel][row][column] */
    double *labels;
};

/* The splits one thread inflates in turn (X each), beside the other lane's thread. */
struct lane {
    size_t splits[SPLIT_COUNT];
    size_t split_count;
    size_t next;              /* splits[next] is being read */
    struct matlab_file *file; /* its file; NULL once the lane is done */
    struct read_ahead *ahead; /* inflating its X */
    uint64_t done;            /* its images written */
};

static int wrong(const char *path, const char *why, const char *name)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot convert SVHN format 2: %s: %s%s", path, why, name);
}

/* Moves FILE to variable NAME, which must be a real numeric array of CLASS_ID. */
static int find_variable(struct matlab_file *file, const char *path, const char *name,
                         enum matlab_class class_id, struct matlab_variable *variable)
{
    bool found;
    int status = matlab_find(file, name, variable, &found);
    if (status != EXIT_OK)
        return status;
    if (!found)
        return wrong(path, "no variable ", name);
    if (variable->class_id != class_id || variable->complex)
        return wrong(path, class_id == MATLAB_UINT8 ? "not a real uint8 array: "
                                                    : "not a real double array: ", name);
    return EXIT_OK;
}

static int check_images(const char *path, const struct matlab_variable *images)
{
    const uint64_t *dimensions = images->dimensions;
    if (images->rank != 4 || dimensions[0] != SIDE || dimensions[1] != SIDE ||
        dimensions[2] != CHANNELS)
        return error_set(EXIT_CORRUPT_INPUT,
                         "cannot convert SVHN format 2: %s: X is not 32x32x3xN "
                         "(rank %d, %llux%llux%llu...)",
                         path, images->rank, (unsigned long long)dimensions[0],
                         (unsigned long long)dimensions[1], (unsigned long long)dimensions[2]);
    return EXIT_OK;
}

static int check_labels(const char *path, const struct matlab_variable *labels, uint64_t count)
{
    if (labels->rank != 2 || labels->dimensions[1] != 1 || labels->dimensions[0] != count)
        return error_set(EXIT_CORRUPT_INPUT,
                         "cannot convert SVHN format 2: %s: y is %llux%llu (rank %d), "
                         "expected %llux1 to match X",
                         path, (unsigned long long)labels->dimensions[0],
                         (unsigned long long)labels->dimensions[1], labels->rank,
                         (unsigned long long)count);
    return EXIT_OK;
}

/* Moves FILE to X and checks that it is a 32x32x3xN uint8 array. */
static int find_images(struct matlab_file *file, const char *path, struct matlab_variable *images)
{
    int status = find_variable(file, path, SVHN_FORMAT_2_IMAGES, MATLAB_UINT8, images);
    return status == EXIT_OK ? check_images(path, images) : status;
}

/* Moves FILE to y and checks that it is a COUNTx1 double array. */
static int find_labels(struct matlab_file *file, const char *path, uint64_t count,
                       struct matlab_variable *labels)
{
    int status = find_variable(file, path, SVHN_FORMAT_2_LABELS, MATLAB_DOUBLE, labels);
    return status == EXIT_OK ? check_labels(path, labels, count) : status;
}

/* Opens PATH and finds its X; FILE is closed again on failure. */
static int open_images(const char *path, struct matlab_file **file,
                       struct matlab_variable *images)
{
    int status = matlab_open(file, path);
    if (status != EXIT_OK)
        return status;
    status = find_images(*file, path, images);
    if (status != EXIT_OK)
        matlab_close(*file);
    return status;
}

/* Reads the headers of X and y in INPUT's file and records its image count. */
static int inspect_split(struct split_input *input)
{
    struct matlab_file *file;
    struct matlab_variable images, labels;
    int status = open_images(input->path, &file, &images);
    if (status != EXIT_OK)
        return status;
    status = find_labels(file, input->path, images.dimensions[3], &labels);
    if (status == EXIT_OK)
        input->count = images.dimensions[3];
    matlab_close(file);
    return status;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Transposes the 16x16 tile at IN into OUT, both rows of SIDE bytes: four rounds of interleaving
   row i with row i + 8 take a 16x16 byte matrix to its transpose. */
static void transpose_tile(const unsigned char *in, unsigned char *out)
{
    __m128i rows[16], next[16];
    for (int row = 0; row < 16; row++)
        rows[row] = _mm_loadu_si128((const __m128i *)(in + row * SIDE));
    for (int round = 0; round < 4; round++) {
        for (int row = 0; row < 8; row++) {
            next[2 * row] = _mm_unpacklo_epi8(rows[row], rows[row + 8]);
            next[2 * row + 1] = _mm_unpackhi_epi8(rows[row], rows[row + 8]);
        }
        for (int row = 0; row < 16; row++)
            rows[row] = next[row];
    }
    for (int row = 0; row < 16; row++)
        _mm_storeu_si128((__m128i *)(out + row * SIDE), rows[row]);
}

static void transpose_plane(const unsigned char *plane, unsigned char *output)
{
    for (int column = 0; column < SIDE; column += 16)
        for (int row = 0; row < SIDE; row += 16)
            transpose_tile(plane + column * SIDE + row, output + row * SIDE + column);
}
#else
static void transpose_plane(const unsigned char *plane, unsigned char *output)
{
    /* Reading the plane in order and writing with a stride is twice as fast as the reverse. */
    for (int column = 0; column < SIDE; column++)
        for (int row = 0; row < SIDE; row++)
            output[row * SIDE + column] = plane[column * SIDE + row];
}
#endif

/* features[n][c][r][k] = X[r][k][c][n]: each channel of a column-major image is transposed (with
   SSE2 a third faster than byte by byte, which took 0.9 s for extra's 1.6 GB). */
static void transpose_images(const unsigned char *images, unsigned char *transposed, uint64_t count)
{
    for (uint64_t image = 0; image < count; image++, images += IMAGE_SIZE, transposed += IMAGE_SIZE)
        for (int channel = 0; channel < CHANNELS; channel++)
            transpose_plane(images + channel * SIDE * SIDE, transposed + channel * SIDE * SIDE);
}

static int read_images(void *file, void *images, size_t size)
{
    return matlab_read(file, images, size);   /* X is uint8: one element a byte */
}

/* SVHN labels digit 0 as 10; Fuel stores it as 0. */
static int write_labels(struct svhn_output *output, struct matlab_file *file, uint64_t first,
                        uint64_t count)
{
    for (uint64_t done = 0; done < count;) {
        uint64_t block = count - done < BLOCK_LABELS ? count - done : BLOCK_LABELS;
        int status = matlab_read(file, output->labels, block);
        if (status != EXIT_OK)
            return status;
        for (uint64_t index = 0; index < block; index++)
            if (output->labels[index] == 10)
                output->labels[index] = 0;
        status = h5py_writer_write(output->writer, output->targets, first + done, block,
                                   output->labels);
        if (status != EXIT_OK)
            return status;
        done += block;
    }
    return EXIT_OK;
}

static void lane_close(struct lane *lane)
{
    read_ahead_end(lane->ahead);
    lane->ahead = NULL;
    if (lane->file != NULL)
        matlab_close(lane->file);
    lane->file = NULL;
}

/* Opens the lane's next split and starts inflating its X; the lane ends (FILE NULL) after its last. */
static int lane_begin(struct svhn_output *output, struct lane *lane)
{
    lane->done = 0;
    if (lane->next == lane->split_count)
        return EXIT_OK;
    const struct split_input *input = &output->inputs[lane->splits[lane->next]];
    struct matlab_variable images;
    int status = open_images(input->path, &lane->file, &images);
    if (status != EXIT_OK) {
        lane->file = NULL;
        return status;
    }
    if (images.dimensions[3] != input->count)
        return wrong(input->path, "changed while being converted", "");
    return read_ahead_start(&lane->ahead, read_images, lane->file, BLOCK_IMAGES * IMAGE_SIZE,
                            input->count * IMAGE_SIZE);
}

/* After its X: the split's y, and the lane's next split begun. */
static int lane_next_split(struct svhn_output *output, struct lane *lane)
{
    size_t split = lane->splits[lane->next];
    struct matlab_variable labels;
    read_ahead_end(lane->ahead);
    lane->ahead = NULL;
    int status = find_labels(lane->file, output->inputs[split].path, output->inputs[split].count,
                             &labels);
    if (status == EXIT_OK)
        status = write_labels(output, lane->file, output->firsts[split],
                              output->inputs[split].count);
    lane_close(lane);
    lane->next++;
    return status == EXIT_OK ? lane_begin(output, lane) : status;
}

/* Transposes and writes the lane's next block of images (HDF5 stays in this thread). */
static int lane_step(struct svhn_output *output, struct lane *lane)
{
    size_t split = lane->splits[lane->next];
    if (lane->done < output->inputs[split].count) {
        const unsigned char *images;
        size_t size;
        int status = read_ahead_next(lane->ahead, &images, &size);
        if (status != EXIT_OK)
            return status;
        uint64_t block = size / IMAGE_SIZE;
        transpose_images(images, output->transposed, block);
        status = h5py_writer_write(output->writer, output->features,
                                   output->firsts[split] + lane->done, block, output->transposed);
        if (status != EXIT_OK)
            return status;
        lane->done += block;
        output->written += block;
        converter_report_done(output->arguments, output->written);
        if (lane->done < output->inputs[split].count)
            return EXIT_OK;
    }
    return lane_next_split(output, lane);
}

static int declare_sources(struct svhn_output *output, uint64_t total)
{
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4,
        .shape = {total, CHANNELS, SIDE, SIDE},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_FLOAT64, .rank = 2, .shape = {total, 1},
        .axis_labels = {"batch", "index"},
    };
    int status = h5py_writer_add_source(output->writer, &features, &output->features);
    return status == EXIT_OK ? h5py_writer_add_source(output->writer, &targets, &output->targets)
                             : status;
}

/* The largest split in a lane of its own, the others in the second: the lanes' threads inflate
   side by side, inflating being most of the work. */
static void lanes_plan(const struct split_input *inputs, struct lane *lanes)
{
    size_t largest = 0;
    for (size_t split = 1; split < SPLIT_COUNT; split++)
        if (inputs[split].count > inputs[largest].count)
            largest = split;
    lanes[0] = (struct lane){.splits = {largest}, .split_count = 1};
    lanes[1] = (struct lane){.split_count = 0};
    for (size_t split = 0; split < SPLIT_COUNT; split++)
        if (split != largest)
            lanes[1].splits[lanes[1].split_count++] = split;
}

static int write_splits(struct svhn_output *output, uint64_t total)
{
    struct lane lanes[LANE_COUNT];
    lanes_plan(output->inputs, lanes);
    converter_report_stage(output->arguments, "images", total);
    int status = EXIT_OK;
    for (size_t lane = 0; lane < LANE_COUNT && status == EXIT_OK; lane++)
        status = lane_begin(output, &lanes[lane]);
    while (status == EXIT_OK && (lanes[0].file != NULL || lanes[1].file != NULL))
        for (size_t lane = 0; lane < LANE_COUNT && status == EXIT_OK; lane++)
            if (lanes[lane].file != NULL)
                status = lane_step(output, &lanes[lane]);
    for (size_t lane = 0; lane < LANE_COUNT; lane++)
        lane_close(&lanes[lane]);
    for (size_t split = 0; split < SPLIT_COUNT && status == EXIT_OK; split++)
        status = h5py_writer_add_split(output->writer, split_names[split], NULL,
                                       output->firsts[split],
                                       output->firsts[split] + output->inputs[split].count);
    return status;
}

static int svhn_convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    struct split_input inputs[SPLIT_COUNT];
    struct svhn_output output = {.arguments = arguments, .writer = writer, .inputs = inputs};
    uint64_t total = 0;
    for (size_t split = 0; split < SPLIT_COUNT; split++) {
        output.firsts[split] = total;
        converter_input_path(arguments, split_files[split], inputs[split].path,
                             sizeof inputs[split].path);
        int status = inspect_split(&inputs[split]);
        if (status != EXIT_OK)
            return status;
        total += inputs[split].count;
    }
    output.transposed = malloc(BLOCK_IMAGES * IMAGE_SIZE);
    output.labels = malloc(BLOCK_LABELS * sizeof(double));
    int status = EXIT_OK;
    if (output.transposed == NULL || output.labels == NULL)
        status = error_set(EXIT_OTHER, "cannot convert SVHN format 2: out of memory");
    if (status == EXIT_OK)
        status = declare_sources(&output, total);
    if (status == EXIT_OK)
        status = write_splits(&output, total);
    free(output.transposed);
    free(output.labels);
    return status;
}

const struct converter svhn_format_2_converter = {
    .summary = "SVHN format 2: 32x32 cropped digits (3 MATLAB files) into svhn_format_2.hdf5",
    .inputs = {SVHN_FORMAT_2_TRAIN, SVHN_FORMAT_2_TEST, SVHN_FORMAT_2_EXTRA},
    .input_count = SVHN_FORMAT_2_FILE_COUNT,
    .output_file = "svhn_format_2.hdf5",
    .convert = svhn_convert,
};
