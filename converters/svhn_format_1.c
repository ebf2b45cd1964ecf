/* SVHN format 1: {train,test,extra}.tar.gz (SPLIT/N.png images and SPLIT/digitStruct.mat boxes)
   into variable-length features and bbox_* sources, as Fuel 0.2 writes svhn_format_1.hdf5. */
#include "converter.h"
#include "downloaders/svhn.h"
#include "svhn_format_1_boxes.h"

#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/png/png_read.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Members may come in any order, and the writer needs every source's example count (the rows of
   all three digitStruct.mat files) before the first row. Buffering images until the boxes arrive
   would hold up to a whole archive (2 GB of PNGs for extra); instead each archive is read twice:
   a first pass stops as soon as SPLIT/digitStruct.mat is read (at once when it comes first,
   after inflating the archive when it comes last), copies it to a scratch file and counts its
   rows; the second pass decodes the PNGs as they stream by on a pool of worker threads while
   this thread reads the boxes (libhdf5 is not thread-safe: every HDF5 call stays here) and
   writes, in an order fixed by the archive and the thread count alone, so the same inputs and
   command give the same file. Memory stays bounded by a few PNGs per thread and one image's
   boxes, whatever the size of digitStruct.mat. */

enum { SPLIT_COUNT = 3, FIELD_COUNT = SVHN_FIELD_COUNT, LABEL_FIELD = SVHN_LABEL_FIELD };

/* PNG members are held whole in memory, a few per thread. */
#define MAXIMUM_IMAGE_BYTES (64u * 1024u * 1024u)
enum { JOBS_PER_THREAD = 4 };

_Static_assert(PNG_RGB_MAX_SIDE <= UINT16_MAX, "image sides are stored in uint16 shapes");

static const char *const split_names[SPLIT_COUNT] = SVHN_SPLITS;

/* Each split's archive, in the order of the splits. */
static const enum svhn_format_1_file split_files[SPLIT_COUNT] = {
    SVHN_FORMAT_1_TRAIN, SVHN_FORMAT_1_TEST, SVHN_FORMAT_1_EXTRA};
static const char *const box_source_names[FIELD_COUNT] = {
    "bbox_labels", "bbox_heights", "bbox_widths", "bbox_lefts", "bbox_tops"};
static const char *const box_axis_labels[FIELD_COUNT] = {"index", "height", "width", "x", "y"};

/* One PNG member on its way: read by the main thread, decoded by a worker, written in order. */
struct image_job {
    unsigned char *bytes;
    size_t size;
    size_t capacity;
    uint64_t row;
    char label[4200];
    struct png_rgb image;
};

struct svhn_conversion {
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    struct svhn_boxes *boxes[SPLIT_COUNT];
    uint64_t images[SPLIT_COUNT];   /* rows of each split's digitStruct.mat */
    uint64_t next_boxes;            /* the next image of the current split whose boxes to write */
    int features;
    int box_sources[FIELD_COUNT];
    struct image_job *jobs;         /* one per slot of the pool, reused in turn */
    size_t job_count;
    size_t next_job;
    uint64_t written;               /* images of the current split written */
    bool *seen;                     /* images of the current split already queued */
};

static void archive_path(const struct svhn_conversion *conversion, int split, char *path,
                         size_t size)
{
    converter_input_path(conversion->arguments, split_files[split], path, size);
}

/* NAME without a leading "./", when it lies in the directory SPLIT: the rest of it, else NULL. */
static const char *inside_split(const char *name, int split)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    size_t length = strlen(split_names[split]);
    if (strncmp(name, split_names[split], length) != 0 || name[length] != '/')
        return NULL;
    return name + length + 1;
}

/* First pass: opens SPLIT/digitStruct.mat, wherever it is in the archive, and stops there. */
static int open_split_boxes(struct svhn_conversion *conversion, int split)
{
    char path[4096];
    archive_path(conversion, split, path, sizeof path);
    char stage[4200];
    snprintf(stage, sizeof stage, "%s: looking for %s/digitStruct.mat", path, split_names[split]);
    converter_report_stage(conversion->arguments, stage, 0);
    struct archive_stream *stream;
    int result = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, conversion->arguments->threads);
    if (result != EXIT_OK)
        return result;
    for (;;) {
        const char *name;
        uint64_t size;
        result = archive_stream_next(stream, &name, &size);
        if (result != EXIT_OK)
            break;
        if (name == NULL) {
            result = error_set(EXIT_CORRUPT_INPUT, "missing bounding boxes: %s: no member %s/%s",
                               path, split_names[split], "digitStruct.mat");
            break;
        }
        const char *inside = inside_split(name, split);
        if (inside == NULL || strcmp(inside, "digitStruct.mat") != 0)
            continue;
        char label[4200];
        snprintf(label, sizeof label, "%s: %s", path, name);
        result = svhn_boxes_open(&conversion->boxes[split], stream, size,
                                 conversion->arguments->scratch_directory, label,
                                 conversion->arguments->threads > 1);
        if (result == EXIT_OK)
            conversion->images[split] = svhn_boxes_images(conversion->boxes[split]);
        break;
    }
    archive_stream_close(stream);
    return result;
}

static int declare_source(struct svhn_conversion *conversion, const char *name,
                          enum element_type type, uint64_t total, int example_rank,
                          const char *const *shape_labels, int *index)
{
    struct h5py_source_declaration source = {
        .name = name, .type = type, .rank = 1, .shape = {total}, .axis_labels = {"batch"},
        .variable_length = true, .example_rank = example_rank,
    };
    for (int axis = 0; axis < example_rank; axis++)
        source.shape_labels[axis] = shape_labels[axis];
    return h5py_writer_add_source(conversion->writer, &source, index);
}

static int declare_sources(struct svhn_conversion *conversion, uint64_t total)
{
    static const char *const feature_labels[3] = {"channel", "height", "width"};
    int result = declare_source(conversion, "features", ELEMENT_UINT8, total, 3, feature_labels,
                                &conversion->features);
    for (int field = 0; result == EXIT_OK && field < FIELD_COUNT; field++) {
        const char *labels[2] = {"bounding_box", box_axis_labels[field]};
        result = declare_source(conversion, box_source_names[field],
                                field == LABEL_FIELD ? ELEMENT_UINT8 : ELEMENT_UINT16, total, 2,
                                labels, &conversion->box_sources[field]);
    }
    uint64_t start = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        uint64_t stop = start + conversion->images[split];
        result = h5py_writer_add_split(conversion->writer, split_names[split], NULL, start, stop);
        start = stop;
    }
    return result;
}

/* Reads the boxes of the split's next image and writes them at row OFFSET + that image. */
static int write_next_boxes(struct svhn_conversion *conversion, int split, uint64_t offset)
{
    struct svhn_image_boxes *boxes;
    uint64_t image = conversion->next_boxes++;
    int result = svhn_boxes_read(conversion->boxes[split], image, &boxes);
    uint8_t labels[UINT16_MAX];
    uint16_t shape[2] = {(uint16_t)boxes->count, 1};
    for (int field = 0; result == EXIT_OK && field < FIELD_COUNT; field++) {
        const void *data = boxes->values[field];
        if (field == LABEL_FIELD) {
            for (uint16_t box = 0; box < shape[0]; box++)
                labels[box] = (uint8_t)boxes->values[field][box];
            data = labels;
        }
        result = h5py_writer_write_variable(conversion->writer, conversion->box_sources[field],
                                            offset + image, data, shape);
    }
    return result;
}

/* The image number N of a member named "N.png" (N from 1, no leading zero), or 0. */
static uint64_t image_number(const char *name)
{
    if (name[0] < '1' || name[0] > '9')
        return 0;
    uint64_t number = 0;
    for (; *name >= '0' && *name <= '9'; name++) {
        if (number > (UINT64_MAX - 9) / 10)
            return 0;
        number = number * 10 + (uint64_t)(*name - '0');
    }
    return strcmp(name, ".png") == 0 ? number : 0;
}

static int read_member(struct image_job *job, struct archive_stream *stream, uint64_t size)
{
    if (size > MAXIMUM_IMAGE_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "image too large: %s: %" PRIu64
                         " bytes, more than %u", job->label, size, MAXIMUM_IMAGE_BYTES);
    if (size > job->capacity) {
        unsigned char *grown = realloc(job->bytes, (size_t)size);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
        job->bytes = grown;
        job->capacity = (size_t)size;
    }
    job->size = (size_t)size;
    return archive_stream_read_exactly(stream, job->bytes, (size_t)size);
}

/* In a worker thread: the PNG's pixels. */
static int decode_job(void *argument)
{
    struct image_job *job = argument;
    return png_rgb_decode(job->bytes, job->size, job->label, &job->image);
}

/* The oldest job of the pool, decoded, written at its row. */
static int write_oldest(struct svhn_conversion *conversion, struct ordered_pool *pool)
{
    void *argument;
    int result = ordered_pool_collect(pool, &argument);
    struct image_job *job = argument;
    if (result != EXIT_OK)
        return result;
    uint16_t shape[3] = {3, (uint16_t)job->image.height, (uint16_t)job->image.width};
    result = h5py_writer_write_variable(conversion->writer, conversion->features, job->row,
                                        job->image.pixels, shape);
    png_rgb_free(&job->image);
    converter_report_done(conversion->arguments, ++conversion->written);
    return result;
}

static int queue_image(struct svhn_conversion *conversion, struct ordered_pool *pool,
                       struct archive_stream *stream, uint64_t size, uint64_t row,
                       const char *label)
{
    int result = ordered_pool_full(pool) ? write_oldest(conversion, pool) : EXIT_OK;
    if (result != EXIT_OK)
        return result;
    struct image_job *job = &conversion->jobs[conversion->next_job];
    conversion->next_job = (conversion->next_job + 1) % conversion->job_count;
    snprintf(job->label, sizeof job->label, "%s", label);
    job->row = row;
    result = read_member(job, stream, size);
    if (result == EXIT_OK)
        ordered_pool_submit(pool, job);
    return result;
}

static int copy_member(struct svhn_conversion *conversion, struct ordered_pool *pool,
                       struct archive_stream *stream, int split, const char *name, uint64_t size,
                       uint64_t offset, const char *path)
{
    const char *inside = inside_split(name, split);
    uint64_t number = inside != NULL ? image_number(inside) : 0;
    if (number == 0)
        return EXIT_OK; /* see_bboxes.m, digitStruct.mat, anything that is not an image */
    char label[4200];
    snprintf(label, sizeof label, "%s: %s", path, name);
    if (number > conversion->images[split])
        return error_set(EXIT_CORRUPT_INPUT,
                         "image without bounding boxes: %s: digitStruct.mat has %" PRIu64 " rows",
                         label, conversion->images[split]);
    if (conversion->seen[number - 1])
        return error_set(EXIT_CORRUPT_INPUT, "duplicate image: %s", label);
    conversion->seen[number - 1] = true;
    return queue_image(conversion, pool, stream, size, offset + number - 1, label);
}

static int check_every_image_seen(const struct svhn_conversion *conversion, int split,
                                  const char *path)
{
    for (uint64_t image = 0; image < conversion->images[split]; image++)
        if (!conversion->seen[image])
            return error_set(EXIT_CORRUPT_INPUT,
                             "missing image: %s: %s/%" PRIu64
                             ".png: digitStruct.mat has bounding boxes for it",
                             path, split_names[split], image + 1);
    return EXIT_OK;
}

/* Streams the members of PATH into the pool, then writes what is still pending. */
static int stream_images(struct svhn_conversion *conversion, struct ordered_pool *pool, int split,
                         uint64_t offset, const char *path)
{
    struct archive_stream *stream = NULL;
    int result = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, conversion->arguments->threads);
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        result = archive_stream_next(stream, &name, &size);
        if (result != EXIT_OK || name == NULL)
            break;
        result = copy_member(conversion, pool, stream, split, name, size, offset, path);
        /* One image's boxes per member, read while the workers decode. */
        if (result == EXIT_OK && conversion->next_boxes < conversion->images[split])
            result = write_next_boxes(conversion, split, offset);
    }
    while (result == EXIT_OK && conversion->next_boxes < conversion->images[split])
        result = write_next_boxes(conversion, split, offset);
    while (result == EXIT_OK && ordered_pool_pending(pool) > 0)
        result = write_oldest(conversion, pool);
    if (stream != NULL)
        archive_stream_close(stream);
    return result;
}

/* Second pass: decodes every SPLIT/N.png as it streams by and writes it at row OFFSET + N - 1. */
static int copy_split_images(struct svhn_conversion *conversion, int split, uint64_t offset)
{
    char path[4096];
    archive_path(conversion, split, path, sizeof path);
    conversion->seen = calloc(conversion->images[split] + 1, sizeof *conversion->seen);
    if (conversion->seen == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->written = 0;
    conversion->next_boxes = 0;
    converter_report_stage(conversion->arguments, path, conversion->images[split]);
    unsigned threads = conversion->arguments->threads;
    struct ordered_pool *pool = NULL;
    int result = ordered_pool_create(&pool, threads, conversion->job_count, decode_job);
    if (result == EXIT_OK)
        result = stream_images(conversion, pool, split, offset, path);
    ordered_pool_destroy(pool);
    if (result == EXIT_OK)
        result = check_every_image_seen(conversion, split, path);
    free(conversion->seen);
    conversion->seen = NULL;
    return result;
}

/* One job per slot of the pool: a few per thread keep every worker busy while the main thread
   reads and writes. */
static int allocate_jobs(struct svhn_conversion *conversion)
{
    unsigned threads = conversion->arguments->threads;
    conversion->job_count = threads > 1 ? (size_t)threads * JOBS_PER_THREAD : 1;
    conversion->jobs = calloc(conversion->job_count, sizeof *conversion->jobs);
    if (conversion->jobs == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    return EXIT_OK;
}

static void free_jobs(struct svhn_conversion *conversion)
{
    for (size_t index = 0; conversion->jobs != NULL && index < conversion->job_count; index++) {
        free(conversion->jobs[index].bytes);
        png_rgb_free(&conversion->jobs[index].image);
    }
    free(conversion->jobs);
}

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    struct svhn_conversion conversion = {.arguments = arguments, .writer = writer};
    int result = EXIT_OK;
    uint64_t total = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        result = open_split_boxes(&conversion, split);
        total += conversion.images[split];
    }
    if (result == EXIT_OK)
        result = declare_sources(&conversion, total);
    if (result == EXIT_OK)
        result = allocate_jobs(&conversion);
    uint64_t offset = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        result = copy_split_images(&conversion, split, offset);
        offset += conversion.images[split];
    }
    for (int split = 0; split < SPLIT_COUNT; split++)
        svhn_boxes_close(conversion.boxes[split]);
    free_jobs(&conversion);
    return result;
}

const struct converter svhn_format_1_converter = {
    .summary = "SVHN format 1: house-number PNGs and digit boxes into svhn_format_1.hdf5",
    .inputs = {SVHN_FORMAT_1_TRAIN, SVHN_FORMAT_1_TEST, SVHN_FORMAT_1_EXTRA},
    .input_count = SVHN_FORMAT_1_FILE_COUNT,
    .output_file = "svhn_format_1.hdf5",
    .convert = convert,
};
