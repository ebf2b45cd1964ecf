/* SVHN format 1: {train,test,extra}.tar.gz (SPLIT/N.png images and SPLIT/digitStruct.mat boxes)
   into variable-length features and bbox_* sources, as Fuel 0.2 writes svhn_format_1.hdf5. */
#include "converter.h"

#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/formats/matlab73.h"
#include "common/formats/png_rgb.h"
#include "common/formats/tar_stream.h"
#include "common/hdf5/publish.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Members may come in any order, and the writer needs every source's example count (all three
   digitStruct.mat files) before the first row. Buffering images until the boxes arrive would hold
   up to a whole archive (2 GB of PNGs for extra); instead each archive is read twice: a first pass
   stops as soon as SPLIT/digitStruct.mat is read (at once when it comes first, after inflating the
   archive when it comes last) and keeps only the boxes, a few bytes per digit; the second pass
   decodes the PNGs as they stream by, on a pool of worker threads, and writes each at its image
   number's row in the order the archive holds them (whatever the thread count, the same writes in
   the same order: the same file). digitStruct.mat goes to a briefly named scratch file that
   libhdf5 reads piece by piece, so memory stays bounded by a few PNGs per thread and the boxes. */

enum { SPLIT_COUNT = 3, FIELD_COUNT = 5, LABEL_FIELD = 0 };

/* PNG members are held whole in memory, a few per thread. */
#define MAXIMUM_IMAGE_BYTES (64u * 1024u * 1024u)
enum { COPY_BLOCK_BYTES = 1 << 16, JOBS_PER_THREAD = 4 };

_Static_assert(PNG_RGB_MAX_SIDE <= UINT16_MAX, "image sides are stored in uint16 shapes");

static const char *const split_names[SPLIT_COUNT] = {"train", "test", "extra"};
static const char *const archive_names[SPLIT_COUNT] = {"train.tar.gz", "test.tar.gz",
                                                       "extra.tar.gz"};
static const char *const field_names[FIELD_COUNT] = {"label", "height", "width", "left", "top"};
static const char *const box_source_names[FIELD_COUNT] = {
    "bbox_labels", "bbox_heights", "bbox_widths", "bbox_lefts", "bbox_tops"};
static const char *const box_axis_labels[FIELD_COUNT] = {"index", "height", "width", "x", "y"};

/* The boxes of one split: image I (from 0) has boxes first_box[I] to first_box[I + 1] - 1. */
struct split_boxes {
    uint64_t images;
    uint64_t *first_box;
    uint16_t *values[FIELD_COUNT];
    uint64_t box_count;
    uint64_t box_capacity;
};

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
    struct split_boxes boxes[SPLIT_COUNT];
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
    snprintf(path, size, "%s/%s", conversion->arguments->input_directory, archive_names[split]);
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

static void free_boxes(struct split_boxes *boxes)
{
    free(boxes->first_box);
    for (int field = 0; field < FIELD_COUNT; field++)
        free(boxes->values[field]);
    *boxes = (struct split_boxes){0};
}

static int reserve_boxes(struct split_boxes *boxes, uint64_t needed)
{
    if (needed <= boxes->box_capacity)
        return EXIT_OK;
    uint64_t capacity = boxes->box_capacity > 0 ? boxes->box_capacity : 1024;
    while (capacity < needed)
        capacity *= 2;
    for (int field = 0; field < FIELD_COUNT; field++) {
        uint16_t *grown = realloc(boxes->values[field], capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
        boxes->values[field] = grown;
    }
    boxes->box_capacity = capacity;
    return EXIT_OK;
}

/* Fuel clamps negative values to 0, truncates to integers and stores uint16 (labels uint8 with
   10 meaning the digit 0); values that cannot be stored so are refused. */
static int store_value(double value, int field, uint16_t *stored, const char *where)
{
    if (isnan(value) || value > UINT16_MAX)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s.%s: value %g out of range",
                         where, field_names[field], value);
    uint16_t integer = value > 0 ? (uint16_t)value : 0;
    if (field == LABEL_FIELD && integer > 10)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s.label: %u is above 10",
                         where, integer);
    *stored = field == LABEL_FIELD && integer == 10 ? 0 : integer;
    return EXIT_OK;
}

static int read_image_boxes(struct matlab73_vector *bbox, uint64_t image,
                            struct split_boxes *boxes, struct matlab73_numbers *numbers,
                            const char *where)
{
    uint64_t first = boxes->box_count;
    int result = matlab73_vector_fields(bbox, image, field_names, FIELD_COUNT, numbers);
    size_t count = numbers[LABEL_FIELD].count;
    if (result == EXIT_OK && count > UINT16_MAX)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s: %zu boxes, more than %u",
                         where, count, UINT16_MAX);
    if (result == EXIT_OK)
        result = reserve_boxes(boxes, first + count);
    for (int field = 0; result == EXIT_OK && field < FIELD_COUNT; field++) {
        if (numbers[field].count != count)
            return error_set(EXIT_CORRUPT_INPUT,
                             "bad bounding box: %s: %zu labels but %zu %s values", where, count,
                             numbers[field].count, field_names[field]);
        for (size_t box = 0; result == EXIT_OK && box < count; box++)
            result = store_value(numbers[field].values[box], field,
                                 &boxes->values[field][first + box], where);
    }
    if (result != EXIT_OK)
        return result;
    boxes->box_count = first + count;
    boxes->first_box[image + 1] = boxes->box_count;
    return EXIT_OK;
}

/* digitStruct/name(I) must be "I.png": Fuel pairs rows and images by position, we check it. */
static int check_name(struct matlab73_vector *names, uint64_t image, const char *where)
{
    char name[64], expected[32];
    int result = matlab73_vector_text(names, image, name, sizeof name);
    if (result != EXIT_OK)
        return result;
    snprintf(expected, sizeof expected, "%" PRIu64 ".png", image + 1);
    if (strcmp(name, expected) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "bad image name: %s: \"%s\", expected \"%s\"", where,
                         name, expected);
    return EXIT_OK;
}

static int open_vectors(struct matlab73 *file, struct matlab73_vector **bbox,
                        struct matlab73_vector **names, const char *label)
{
    int result = matlab73_vector_open(file, "digitStruct/bbox", bbox);
    if (result == EXIT_OK)
        result = matlab73_vector_open(file, "digitStruct/name", names);
    if (result == EXIT_OK && matlab73_vector_length(*names) != matlab73_vector_length(*bbox))
        result = error_set(EXIT_CORRUPT_INPUT,
                           "bad digitStruct: %s: %" PRIu64 " names but %" PRIu64 " bbox rows",
                           label, matlab73_vector_length(*names), matlab73_vector_length(*bbox));
    return result;
}

static int read_all_boxes(const struct svhn_conversion *conversion, struct matlab73 *file,
                          struct split_boxes *boxes, const char *label)
{
    struct matlab73_vector *bbox = NULL, *names = NULL;
    struct matlab73_numbers numbers[FIELD_COUNT] = {{0}};
    int result = open_vectors(file, &bbox, &names, label);
    if (result == EXIT_OK) {
        boxes->images = matlab73_vector_length(bbox);
        boxes->first_box = calloc(boxes->images + 1, sizeof *boxes->first_box);
        if (boxes->first_box == NULL)
            result = error_set(EXIT_OTHER, "cannot convert: out of memory");
        converter_report_stage(conversion->arguments, label, boxes->images);
    }
    for (uint64_t image = 0; result == EXIT_OK && image < boxes->images; image++) {
        char where[4300];
        snprintf(where, sizeof where, "%s: digitStruct/bbox(%" PRIu64 ")", label, image + 1);
        result = read_image_boxes(bbox, image, boxes, numbers, where);
        snprintf(where, sizeof where, "%s: digitStruct/name(%" PRIu64 ")", label, image + 1);
        if (result == EXIT_OK)
            result = check_name(names, image, where);
        converter_report_done(conversion->arguments, image + 1);
    }
    for (int field = 0; field < FIELD_COUNT; field++)
        matlab73_numbers_free(&numbers[field]);
    matlab73_vector_close(bbox);
    matlab73_vector_close(names);
    return result;
}

/* Copies the current member (SIZE bytes) into DESCRIPTOR, block by block. */
static int copy_to_file(struct tar_stream *stream, uint64_t size, int descriptor,
                        const char *path)
{
    unsigned char block[COPY_BLOCK_BYTES];
    while (size > 0) {
        size_t count = size < sizeof block ? (size_t)size : sizeof block;
        int result = tar_stream_read_exactly(stream, block, count);
        if (result != EXIT_OK)
            return result;
        for (size_t written = 0; written < count;) {
            ssize_t done = write(descriptor, block + written, count - written);
            if (done < 0)
                return error_set(EXIT_WRITE, "cannot write scratch file: %s: %s", path,
                                 strerror(errno));
            written += (size_t)done;
        }
        size -= count;
    }
    return EXIT_OK;
}

/* digitStruct.mat goes to a scratch file in the output directory (HDF5 1.10 opens files by name
   only: it refuses an unlinked file's /proc/self/fd path), named as fuel-convert's temporaries
   are so that `fuel clean` removes it after a kill, and unlinked as soon as libhdf5 opened it. */
static int read_digit_struct(const struct svhn_conversion *conversion, struct tar_stream *stream,
                             uint64_t size, const char *label, struct split_boxes *boxes)
{
    const char *directory = conversion->arguments->scratch_directory;
    if (directory == NULL)
        directory = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    struct publication scratch;
    int result = publish_begin(&scratch, directory, "digitStruct.mat.h5");
    if (result != EXIT_OK)
        return result;
    struct matlab73 *file = NULL;
    result = copy_to_file(stream, size, scratch.lock_descriptor, scratch.temporary_path);
    if (result == EXIT_OK)
        result = matlab73_open_file(&file, scratch.temporary_path, label);
    publish_abort(&scratch);
    if (result == EXIT_OK)
        result = read_all_boxes(conversion, file, boxes, label);
    matlab73_close(file);
    return result;
}

/* First pass: reads SPLIT/digitStruct.mat, wherever it is in the archive, and stops there. */
static int read_split_boxes(struct svhn_conversion *conversion, int split)
{
    char path[4096];
    archive_path(conversion, split, path, sizeof path);
    struct tar_stream *stream;
    int result = tar_stream_open(&stream, path);
    if (result != EXIT_OK)
        return result;
    for (;;) {
        const char *name;
        uint64_t size;
        result = tar_stream_next(stream, &name, &size);
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
        result = read_digit_struct(conversion, stream, size, label, &conversion->boxes[split]);
        break;
    }
    tar_stream_close(stream);
    return result;
}

static int declare_source(struct svhn_conversion *conversion, const char *name,
                          enum element_type type, uint64_t total, int example_rank,
                          const char *const *shape_labels, int *index)
{
    struct h5py_source source = {
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
        uint64_t stop = start + conversion->boxes[split].images;
        result = h5py_writer_add_split(conversion->writer, split_names[split], NULL, start, stop);
        start = stop;
    }
    return result;
}

static int write_split_boxes(struct svhn_conversion *conversion, const struct split_boxes *boxes,
                             uint64_t offset)
{
    uint8_t labels[UINT16_MAX];
    for (uint64_t image = 0; image < boxes->images; image++) {
        uint64_t first = boxes->first_box[image];
        uint16_t shape[2] = {(uint16_t)(boxes->first_box[image + 1] - first), 1};
        for (int field = 0; field < FIELD_COUNT; field++) {
            const void *data = boxes->values[field] + first;
            if (field == LABEL_FIELD) {
                for (uint16_t box = 0; box < shape[0]; box++)
                    labels[box] = (uint8_t)boxes->values[field][first + box];
                data = labels;
            }
            int result = h5py_writer_write_variable(
                conversion->writer, conversion->box_sources[field], offset + image, data, shape);
            if (result != EXIT_OK)
                return result;
        }
    }
    return EXIT_OK;
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

static int read_member(struct image_job *job, struct tar_stream *stream, uint64_t size)
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
    return tar_stream_read_exactly(stream, job->bytes, (size_t)size);
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
                       struct tar_stream *stream, uint64_t size, uint64_t row, const char *label)
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
                       struct tar_stream *stream, int split, const char *name, uint64_t size,
                       uint64_t offset, const char *path)
{
    const char *inside = inside_split(name, split);
    uint64_t number = inside != NULL ? image_number(inside) : 0;
    if (number == 0)
        return EXIT_OK; /* see_bboxes.m, digitStruct.mat, anything that is not an image */
    char label[4200];
    snprintf(label, sizeof label, "%s: %s", path, name);
    if (number > conversion->boxes[split].images)
        return error_set(EXIT_CORRUPT_INPUT,
                         "image without bounding boxes: %s: digitStruct.mat has %" PRIu64 " rows",
                         label, conversion->boxes[split].images);
    if (conversion->seen[number - 1])
        return error_set(EXIT_CORRUPT_INPUT, "duplicate image: %s", label);
    conversion->seen[number - 1] = true;
    return queue_image(conversion, pool, stream, size, offset + number - 1, label);
}

static int check_every_image_seen(const struct svhn_conversion *conversion, int split,
                                  const char *path)
{
    for (uint64_t image = 0; image < conversion->boxes[split].images; image++)
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
    struct tar_stream *stream = NULL;
    int result = tar_stream_open(&stream, path);
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        result = tar_stream_next(stream, &name, &size);
        if (result != EXIT_OK || name == NULL)
            break;
        result = copy_member(conversion, pool, stream, split, name, size, offset, path);
    }
    while (result == EXIT_OK && ordered_pool_pending(pool) > 0)
        result = write_oldest(conversion, pool);
    if (stream != NULL)
        tar_stream_close(stream);
    return result;
}

/* Second pass: decodes every SPLIT/N.png as it streams by and writes it at row OFFSET + N - 1. */
static int copy_split_images(struct svhn_conversion *conversion, int split, uint64_t offset)
{
    char path[4096];
    archive_path(conversion, split, path, sizeof path);
    conversion->seen = calloc(conversion->boxes[split].images + 1, sizeof *conversion->seen);
    if (conversion->seen == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->written = 0;
    converter_report_stage(conversion->arguments, path, conversion->boxes[split].images);
    unsigned threads = converter_threads(conversion->arguments);
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
    unsigned threads = converter_threads(conversion->arguments);
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
        result = read_split_boxes(&conversion, split);
        total += conversion.boxes[split].images;
    }
    if (result == EXIT_OK)
        result = declare_sources(&conversion, total);
    if (result == EXIT_OK)
        result = allocate_jobs(&conversion);
    uint64_t offset = 0;
    for (int split = 0; result == EXIT_OK && split < SPLIT_COUNT; split++) {
        result = write_split_boxes(&conversion, &conversion.boxes[split], offset);
        if (result == EXIT_OK)
            result = copy_split_images(&conversion, split, offset);
        offset += conversion.boxes[split].images;
    }
    for (int split = 0; split < SPLIT_COUNT; split++)
        free_boxes(&conversion.boxes[split]);
    free_jobs(&conversion);
    return result;
}

const struct converter svhn_format_1_converter = {
    .name = "svhn",
    .variant = "1",
    .summary = "SVHN format 1: house-number PNGs and digit boxes into svhn_format_1.hdf5",
    .input_names = archive_names,
    .input_count = SPLIT_COUNT,
    .output_file = "svhn_format_1.hdf5",
    .convert = convert,
};
