/* SVHN format 1's digitStruct.mat: copied to a briefly named scratch file that libhdf5 reads
   piece by piece (never whole in memory), then each image's boxes read on demand, here or in a
   child process that streams them through a pipe. */
#include "svhn_format_1_boxes.h"

#include "common/base/error.h"
#include "downloaders/svhn.h"
#include "common/formats/matlab/matlab73_read.h"
#include "common/base/publish.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { COPY_BLOCK_BYTES = 1 << 16 };

/* The fields of digitStruct/bbox, in the order of svhn_image_boxes' values. */

struct svhn_boxes {
    char label[4200];
    uint64_t images;
    pid_t child;      /* the reading process, or 0 when reading here */
    int pipe;         /* its records, in image order */
    uint64_t next;    /* the image its next record is about */
    struct matlab73 *file;
    struct matlab73_vector *bbox;
    struct matlab73_vector *names;
    struct matlab73_numbers numbers[SVHN_FIELD_COUNT];
    struct svhn_image_boxes image;
    size_t capacity;
};

/* Fuel clamps negative values to 0, truncates to integers and stores uint16 (labels uint8 with
   10 meaning the digit 0); values that cannot be stored so are refused. */
static int store_value(double value, int field, uint16_t *stored, const char *where)
{
    if (isnan(value) || value > UINT16_MAX)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s.%s: value %g out of range",
                         where, svhn_box_fields[field], value);
    uint16_t integer = value > 0 ? (uint16_t)value : 0;
    if (field == SVHN_LABEL_FIELD && integer > 10)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s.label: %u is above 10",
                         where, integer);
    *stored = field == SVHN_LABEL_FIELD && integer == 10 ? 0 : integer;
    return EXIT_OK;
}

static int reserve(struct svhn_boxes *boxes, size_t count)
{
    if (count <= boxes->capacity)
        return EXIT_OK;
    for (int field = 0; field < SVHN_FIELD_COUNT; field++) {
        uint16_t *grown = realloc(boxes->image.values[field], count * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
        boxes->image.values[field] = grown;
    }
    boxes->capacity = count;
    return EXIT_OK;
}

static int read_fields(struct svhn_boxes *boxes, uint64_t image, const char *where)
{
    struct matlab73_numbers *numbers = boxes->numbers;
    int result = matlab73_vector_fields(boxes->bbox, image, svhn_box_fields, SVHN_FIELD_COUNT,
                                        numbers);
    size_t count = numbers[SVHN_LABEL_FIELD].count;
    if (result == EXIT_OK && count > UINT16_MAX)
        return error_set(EXIT_CORRUPT_INPUT, "bad bounding box: %s: %zu boxes, more than %u",
                         where, count, UINT16_MAX);
    if (result == EXIT_OK)
        result = reserve(boxes, count);
    for (int field = 0; result == EXIT_OK && field < SVHN_FIELD_COUNT; field++) {
        if (numbers[field].count != count)
            return error_set(EXIT_CORRUPT_INPUT,
                             "bad bounding box: %s: %zu labels but %zu %s values", where, count,
                             numbers[field].count, svhn_box_fields[field]);
        for (size_t box = 0; result == EXIT_OK && box < count; box++)
            result = store_value(numbers[field].values[box], field,
                                 &boxes->image.values[field][box], where);
    }
    boxes->image.count = count;
    return result;
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

static int read_here(struct svhn_boxes *boxes, uint64_t image, struct svhn_image_boxes **read)
{
    char where[4300];
    snprintf(where, sizeof where, "%s: digitStruct/bbox(%" PRIu64 ")", boxes->label, image + 1);
    int result = read_fields(boxes, image, where);
    snprintf(where, sizeof where, "%s: digitStruct/name(%" PRIu64 ")", boxes->label, image + 1);
    if (result == EXIT_OK)
        result = check_name(boxes->names, image, where);
    *read = &boxes->image;
    return result;
}

static int open_vectors(struct svhn_boxes *boxes)
{
    int result = matlab73_vector_open(boxes->file, "digitStruct/bbox", &boxes->bbox);
    if (result == EXIT_OK)
        result = matlab73_vector_open(boxes->file, "digitStruct/name", &boxes->names);
    if (result == EXIT_OK &&
        matlab73_vector_length(boxes->names) != matlab73_vector_length(boxes->bbox))
        result = error_set(EXIT_CORRUPT_INPUT,
                           "bad digitStruct: %s: %" PRIu64 " names but %" PRIu64 " bbox rows",
                           boxes->label, matlab73_vector_length(boxes->names),
                           matlab73_vector_length(boxes->bbox));
    return result;
}

uint64_t svhn_boxes_images(const struct svhn_boxes *boxes)
{
    return boxes->images;
}

/* A record of the child: CODE, then its message, or VALUE (the image count, or an image's box
   count followed by its values, field by field). */
struct record {
    int32_t code;
    uint32_t message_length;
    uint64_t value;
};

/* Writes (WRITING) or reads exactly SIZE bytes at DATA through DESCRIPTOR; false on a failure
   or an early end. */
static bool move_all(int descriptor, void *data, size_t size, bool writing)
{
    for (char *cursor = data; size > 0;) {
        ssize_t done = writing ? write(descriptor, cursor, size) : read(descriptor, cursor, size);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return false;
        cursor += done;
        size -= (size_t)done;
    }
    return true;
}

static bool write_all(int descriptor, const void *data, size_t size)
{
    return move_all(descriptor, (void *)data, size, true);
}

static bool read_all(int descriptor, void *data, size_t size)
{
    return move_all(descriptor, data, size, false);
}

static bool send_record(int descriptor, int code, uint64_t value,
                        const struct svhn_image_boxes *image)
{
    const char *message = code == EXIT_OK ? "" : error_message();
    struct record record = {code, (uint32_t)strlen(message), value};
    bool sent = write_all(descriptor, &record, sizeof record) &&
                write_all(descriptor, message, record.message_length);
    for (int field = 0; sent && image != NULL && field < SVHN_FIELD_COUNT; field++)
        sent = write_all(descriptor, image->values[field], image->count * sizeof(uint16_t));
    return sent;
}

/* Whatever a forged file makes libhdf5 ask for beyond what hdf5_object_header checks, the reading
   process cannot map more than 1 GiB over what it has when it starts. */
static void limit_address_space(void)
{
    unsigned long pages = 0;
    FILE *status = fopen("/proc/self/statm", "r");
    if (status == NULL || fscanf(status, "%lu", &pages) != 1)
        pages = 0;
    if (status != NULL)
        fclose(status);
    long page = sysconf(_SC_PAGESIZE);
    if (pages == 0 || page <= 0)
        return;
    rlim_t size = (rlim_t)pages * (rlim_t)page + ((rlim_t)1 << 30);
    struct rlimit limit = {size, size};
    setrlimit(RLIMIT_AS, &limit);
}

/* In the child: opens PATH, sends the image count, then each image's boxes, until a failure
   (sent as its code and message) or the last image. Never returns. */
__attribute__((noreturn)) static void serve(struct svhn_boxes *boxes, const char *path,
                                            int descriptor)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    limit_address_space();
    int result = matlab73_open_file(&boxes->file, path, boxes->label);
    if (result == EXIT_OK)
        result = open_vectors(boxes);
    uint64_t images = result == EXIT_OK ? matlab73_vector_length(boxes->bbox) : 0;
    bool sent = send_record(descriptor, result, images, NULL);
    for (uint64_t image = 0; sent && result == EXIT_OK && image < images; image++) {
        struct svhn_image_boxes *read;
        result = read_here(boxes, image, &read);
        sent = send_record(descriptor, result, read->count, result == EXIT_OK ? read : NULL);
    }
    /* _exit: nothing of the parent's (its output file, its temporaries) is flushed or removed. */
    _exit(sent ? EXIT_OK : EXIT_OTHER);
}

/* The child's next record; its failure set here with the child's message. */
static int receive_record(struct svhn_boxes *boxes, uint64_t *value)
{
    struct record record;
    char message[2048];
    if (!read_all(boxes->pipe, &record, sizeof record) ||
        record.message_length >= sizeof message ||
        !read_all(boxes->pipe, message, record.message_length))
        return error_set(EXIT_OTHER, "cannot read bounding boxes: %s: the reading process "
                         "stopped", boxes->label);
    message[record.message_length] = '\0';
    if (record.code != EXIT_OK)
        return error_set(record.code, "%s", message);
    *value = record.value;
    return EXIT_OK;
}

static int read_from_child(struct svhn_boxes *boxes, uint64_t image,
                           struct svhn_image_boxes **read)
{
    *read = &boxes->image;
    boxes->image.count = 0;
    if (image != boxes->next++)
        return error_set(EXIT_OTHER, "cannot read bounding boxes: %s: out of order",
                         boxes->label);
    uint64_t count;
    int result = receive_record(boxes, &count);
    if (result == EXIT_OK && count > UINT16_MAX)
        result = error_set(EXIT_OTHER, "cannot read bounding boxes: %s: garbled", boxes->label);
    if (result == EXIT_OK)
        result = reserve(boxes, (size_t)count);
    for (int field = 0; result == EXIT_OK && field < SVHN_FIELD_COUNT; field++)
        if (!read_all(boxes->pipe, boxes->image.values[field], (size_t)count * sizeof(uint16_t)))
            result = error_set(EXIT_OTHER, "cannot read bounding boxes: %s: the reading "
                               "process stopped", boxes->label);
    boxes->image.count = (size_t)count;
    return result;
}

int svhn_boxes_read(struct svhn_boxes *boxes, uint64_t image, struct svhn_image_boxes **read)
{
    return boxes->child > 0 ? read_from_child(boxes, image, read) : read_here(boxes, image, read);
}

void svhn_boxes_serve(const char *path, const char *label, int descriptor)
{
    struct svhn_boxes boxes = {.pipe = -1};
    snprintf(boxes.label, sizeof boxes.label, "%s", label);
    serve(&boxes, path, descriptor);
}

/* libhdf5 is not thread-safe, so the boxes are read in a process of their own while this one
   writes; it has the scratch file open once its first record (the image count) arrives. The
   child runs this program afresh (`fuel __svhn-boxes`): a forked copy of a process with other
   threads running may inherit a lock one of them held (the allocator's), and never get it. */
static int start_child(struct svhn_boxes *boxes, const char *path)
{
    int ends[2];
    if (pipe(ends) != 0)
        return error_set(EXIT_OTHER, "cannot start reading bounding boxes: %s: %s", boxes->label,
                         strerror(errno));
    char descriptor[16];
    snprintf(descriptor, sizeof descriptor, "%d", ends[1]);
    char *const arguments[] = {"fuel", "__svhn-boxes", (char *)path, boxes->label, descriptor,
                               NULL};
    fflush(NULL);
    boxes->child = fork();
    if (boxes->child == 0) {
        close(ends[0]);
        execv("/proc/self/exe", arguments);
        _exit(EXIT_OTHER);
    }
    close(ends[1]);
    boxes->pipe = ends[0];
    if (boxes->child < 0) {
        boxes->child = 0;
        return error_set(EXIT_OTHER, "cannot start reading bounding boxes: %s: %s", boxes->label,
                         strerror(errno));
    }
    return receive_record(boxes, &boxes->images);
}

/* Copies the current member (SIZE bytes) into DESCRIPTOR, block by block. */
static int copy_to_descriptor(struct archive_stream *stream, uint64_t size, int descriptor,
                              const char *path)
{
    unsigned char block[COPY_BLOCK_BYTES];
    while (size > 0) {
        size_t count = size < sizeof block ? (size_t)size : sizeof block;
        int result = archive_stream_read_exactly(stream, block, count);
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

/* Copies the current member (SIZE bytes) into the file PATH. */
static int copy_to_file(struct archive_stream *stream, uint64_t size, const char *path)
{
    int descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0)
        return error_set(EXIT_WRITE, "cannot write scratch file: %s: %s", path, strerror(errno));
    int result = copy_to_descriptor(stream, size, descriptor, path);
    if (close(descriptor) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write scratch file: %s: %s", path, strerror(errno));
    return result;
}

/* HDF5 1.10 opens files by name only (it refuses an unlinked file's /proc/self/fd path): the
   scratch file is staged as fuel-convert's outputs are, so that `fuel clean` removes it after a
   kill, and removed as soon as libhdf5 has it open. */
int svhn_boxes_open(struct svhn_boxes **boxes, struct archive_stream *stream, uint64_t size,
                    const char *scratch_directory, const char *label, bool in_child)
{
    const char *directory = scratch_directory;
    if (directory == NULL)
        directory = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    *boxes = calloc(1, sizeof **boxes);
    if (*boxes == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    snprintf((*boxes)->label, sizeof (*boxes)->label, "%s", label);
    (*boxes)->pipe = -1;
    struct publication scratch;
    int result = publish_begin(&scratch, directory, "digitStruct.mat.h5");
    if (result == EXIT_OK) {
        result = copy_to_file(stream, size, scratch.temporary_path);
        if (result == EXIT_OK && in_child)
            result = start_child(*boxes, scratch.temporary_path);
        else if (result == EXIT_OK)
            result = matlab73_open_file(&(*boxes)->file, scratch.temporary_path, label);
        publish_abort(&scratch);
    }
    if (result == EXIT_OK && !in_child)
        result = open_vectors(*boxes);
    if (result == EXIT_OK && !in_child)
        (*boxes)->images = matlab73_vector_length((*boxes)->bbox);
    if (result != EXIT_OK) {
        svhn_boxes_close(*boxes);
        *boxes = NULL;
    }
    return result;
}

void svhn_boxes_close(struct svhn_boxes *boxes)
{
    if (boxes == NULL)
        return;
    if (boxes->pipe >= 0)
        close(boxes->pipe);
    if (boxes->child > 0) {
        kill(boxes->child, SIGKILL);
        waitpid(boxes->child, NULL, 0);
    }
    for (int field = 0; field < SVHN_FIELD_COUNT; field++) {
        matlab73_numbers_free(&boxes->numbers[field]);
        free(boxes->image.values[field]);
    }
    matlab73_vector_close(boxes->bbox);
    matlab73_vector_close(boxes->names);
    matlab73_close(boxes->file);
    free(boxes);
}
