/* Checks an ILSVRC image as Fuel's load_from_tar_or_patch does (PIL opens and decodes it; on
   failure it is tried as gzip), by its magic bytes: the checks are jpeg_check (a full decode's
   verdict) and libpng for the one PNG named .JPEG. */
#include "ilsvrc_images.h"

#include "common/base/error.h"
#include "common/formats/gzip/inflate.h"
#include "common/formats/jpeg/jpeg_read.h"
#include "common/formats/png/png_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

static bool is_jpeg(const unsigned char *bytes, size_t size)
{
    return size >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8;
}

static bool is_png(const unsigned char *bytes, size_t size)
{
    return size >= sizeof png_magic && memcmp(bytes, png_magic, sizeof png_magic) == 0;
}

static bool is_gzip(const unsigned char *bytes, size_t size)
{
    return size >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B;
}

/* What decoding the picture holds, by its header (nothing when it has none, or declares more
   pixels than are decoded: the decoding then fails before allocating). */
static uint64_t decoding_cost(const unsigned char *bytes, size_t size, const char *label)
{
    uint64_t cost = 0;
    if (is_jpeg(bytes, size)) {
        struct jpeg_header header;
        if (jpeg_probe(bytes, size, label, &header) == EXIT_OK &&
            (uint64_t)header.width * header.height <= JPEG_PIL_MAX_PIXELS)
            cost = header.coefficient_bytes;
    } else if (is_png(bytes, size)) {
        uint32_t width, height, channels;
        if (png_probe(bytes, size, label, &width, &height, &channels) == EXIT_OK)
            cost = (uint64_t)width * height * 4;
    }
    error_clear();
    return cost;
}

/* Decodes a JPEG or PNG as PIL would, the pixels thrown away. */
static int decode_picture(const unsigned char *bytes, size_t size, const char *label)
{
    if (is_jpeg(bytes, size)) {
        struct jpeg_options options = {.max_pixels = JPEG_PIL_MAX_PIXELS,
                                       .warnings_as_pil = true};
        return jpeg_check(bytes, size, label, &options);
    }
    if (is_png(bytes, size)) {
        struct png_rgb image = {0};
        int result = png_rgb_decode(bytes, size, label, &image);
        png_rgb_free(&image);
        return result;
    }
    return error_set(EXIT_CORRUPT_INPUT, "not an image: %s: neither JPEG, PNG nor gzip", label);
}

static int check_picture(const struct ilsvrc_job *job, const unsigned char *bytes, size_t size)
{
    uint64_t cost = job->budget != NULL ? decoding_cost(bytes, size, job->label) : 0;
    if (cost > 0)
        memory_budget_take(job->budget, cost);
    int result = decode_picture(bytes, size, job->label);
    if (cost > 0)
        memory_budget_give(job->budget, cost);
    return result;
}

static int grow(unsigned char **bytes, size_t *capacity, size_t wanted)
{
    if (wanted <= *capacity)
        return EXIT_OK;
    unsigned char *grown = realloc(*bytes, wanted);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    *bytes = grown;
    *capacity = wanted;
    return EXIT_OK;
}

/* Inflates the gzip member in BYTES into INFLATED, at most ILSVRC_MAXIMUM_IMAGE_BYTES. */
static int inflate_member(struct ilsvrc_job *job)
{
    struct inflater *inflater;
    int result = inflater_create(&inflater, INFLATE_GZIP);
    if (result != EXIT_OK)
        return result;
    inflater_feed(inflater, job->bytes, job->size);
    inflater_end_input(inflater);
    job->inflated_size = 0;
    for (;;) {
        size_t room = job->inflated_capacity - job->inflated_size;
        if (room == 0) {
            size_t wanted = job->inflated_capacity == 0 ? 4 * job->size + 65536
                                                        : 2 * job->inflated_capacity;
            /* Room for one byte more than allowed, to see that there is more. */
            if (wanted > (size_t)ILSVRC_MAXIMUM_IMAGE_BYTES + 1)
                wanted = (size_t)ILSVRC_MAXIMUM_IMAGE_BYTES + 1;
            if (job->inflated_capacity > ILSVRC_MAXIMUM_IMAGE_BYTES) {
                result = error_set(EXIT_CORRUPT_INPUT, "image too large: %s: more than %u "
                                   "bytes once inflated", job->label, ILSVRC_MAXIMUM_IMAGE_BYTES);
                break;
            }
            if ((result = grow(&job->inflated, &job->inflated_capacity, wanted)) != EXIT_OK)
                break;
            continue;
        }
        size_t produced;
        enum inflate_status status = inflater_pull(inflater, job->inflated + job->inflated_size,
                                                   room, &produced);
        job->inflated_size += produced;
        if (status == INFLATE_END)
            break;
        if (status == INFLATE_CORRUPT || status == INFLATE_NEED_INPUT) {
            result = error_set(EXIT_CORRUPT_INPUT, "cannot inflate image: %s: %s", job->label,
                               status == INFLATE_CORRUPT ? inflater_reason(inflater)
                                                         : "unexpected end of file");
            break;
        }
    }
    inflater_free(inflater);
    return result;
}

static int check(struct ilsvrc_job *job)
{
    job->stored = job->bytes;
    job->stored_size = job->size;
    if (!is_gzip(job->bytes, job->size))
        return check_picture(job, job->bytes, job->size);
    int result = inflate_member(job);
    if (result != EXIT_OK)
        return result;
    job->stored = job->inflated;
    job->stored_size = job->inflated_size;
    if (is_gzip(job->inflated, job->inflated_size))
        return error_set(EXIT_CORRUPT_INPUT, "not an image: %s: gzip inside gzip", job->label);
    return check_picture(job, job->inflated, job->inflated_size);
}

int ilsvrc_job_check(void *argument)
{
    struct ilsvrc_job *job = argument;
    job->bad = false;
    int result = check(job);
    if (result != EXIT_CORRUPT_INPUT || !job->skip_bad)
        return result;
    job->bad = true;
    snprintf(job->reason, sizeof job->reason, "%s", error_message());
    error_clear();
    return EXIT_OK;
}

void ilsvrc_job_name(struct ilsvrc_job *job, const char *name)
{
    const char *slash = strrchr(name, '/');
    const char *base = slash != NULL ? slash + 1 : name;
    memset(job->filename, 0, sizeof job->filename);
    size_t length = strlen(base);
    memcpy(job->filename, base, length < sizeof job->filename ? length : sizeof job->filename);
}

int ilsvrc_job_reserve(struct ilsvrc_job *job, uint64_t size)
{
    if (size > ILSVRC_MAXIMUM_IMAGE_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "image too large: %s: more than %u bytes",
                         job->label, ILSVRC_MAXIMUM_IMAGE_BYTES);
    job->size = (size_t)size;
    return grow(&job->bytes, &job->capacity, size > 0 ? (size_t)size : 1);
}

void ilsvrc_job_free(struct ilsvrc_job *job)
{
    free(job->bytes);
    free(job->inflated);
    *job = (struct ilsvrc_job){0};
}
