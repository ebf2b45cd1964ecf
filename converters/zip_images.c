/* The JPEG pipeline of CelebA and Dogs vs Cats: the main thread streams the zip's members
   (archive_stream, never to disk), asks the converter where each goes, and hands the bytes to a
   pool of workers that decode them (libhdf5 is not thread-safe: every HDF5 call stays in the main
   thread); results are collected and written in the archive's order, so the file never depends
   on the thread count. The main thread is one of the --threads: it decodes queued members while
   the oldest is under way, so that as many threads as cores share them (Dogs vs Cats on 2 cores:
   10.9 s with 2 workers beside it, 9.7 s with 1). Memory is bounded by bytes, not by count:
   each member's header tells what decoding it takes, and a member waits for older ones to be
   written until that fits the memory budget beside them; buffers grown beyond a job's share of
   what may be kept are freed once written. */
#include "zip_images.h"

#include "common/base/error.h"
#include "common/base/memory_budget.h"
#include "common/base/ordered_pool.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/archive/zip_directory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Jobs enough to keep every worker busy while the main thread reads and writes (the page cache
   can hold the writer back for milliseconds, a CelebA face decodes in 0.2), as many as the
   in-flight photos' memory allows: JOBS_MEMORY over the converter's bytes a job. */
enum { JOBS_PER_THREAD = 16, JOBS_MOST = 64, JOBS_MEMORY = 24 << 20 };

static bool grow(void **buffer, size_t *capacity, size_t wanted, size_t unit)
{
    if (*capacity >= wanted)
        return true;
    size_t grown = *capacity > 0 ? *capacity : 4096;
    while (grown < wanted)
        grown *= 2;
    void *bigger = realloc(*buffer, grown * unit);
    if (bigger == NULL)
        return false;
    *buffer = bigger;
    *capacity = grown;
    return true;
}

static int remember_name(void *context, const char *name)
{
    struct zip_names *names = context;
    size_t length = strlen(name);
    if (length > 0 && name[length - 1] == '/')
        return EXIT_OK;
    if (!grow((void **)&names->text, &names->text_capacity, names->used + length + 1, 1) ||
        !grow((void **)&names->offsets, &names->offsets_capacity, names->count + 1,
              sizeof *names->offsets))
        return error_set(EXIT_OTHER, "cannot read zip directory: out of memory");
    memcpy(names->text + names->used, name, length + 1);
    names->offsets[names->count++] = names->used;
    names->used += length + 1;
    return EXIT_OK;
}

int zip_names_read(const char *path, struct zip_names *names)
{
    *names = (struct zip_names){0};
    return zip_directory_list(path, remember_name, names);
}

void zip_names_free(struct zip_names *names)
{
    free(names->text);
    free(names->offsets);
    *names = (struct zip_names){0};
}

struct image_stream {
    const struct zip_images_pass *pass;
    struct ordered_pool *pool;
    struct zip_image *jobs; /* one per slot of the pool, reused in turn */
    size_t job_count;
    size_t next_job;
    struct memory_budget budget; /* what the jobs submitted and not yet written take */
    size_t streamed; /* regular-file members met so far */
    uint64_t queued;
    uint64_t written;
};

int zip_image_reserve(struct zip_image *image, size_t size)
{
    if (image->output_capacity >= size)
        return EXIT_OK;
    uint8_t *grown = realloc(image->output, size);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot convert: %s: out of memory", image->label);
    image->output = grown;
    image->output_capacity = size;
    return EXIT_OK;
}

int zip_image_decode(struct zip_image *image, bool interleaved)
{
    struct jpeg_options options = {.max_pixels = ZIP_IMAGES_MAX_PIXELS,
                                   .interleaved = interleaved, .warnings_as_pil = true};
    return jpeg_decode(image->bytes, image->size, image->label, &options, &image->image);
}

static int decode_job(void *argument)
{
    struct zip_image *image = argument;
    return image->pass->decode(image->pass->context, image);
}

/* The bytes IMAGE's buffers hold. */
static uint64_t held_bytes(const struct zip_image *image)
{
    return (uint64_t)image->capacity + image->output_capacity + image->image.capacity +
           image->image.scratch_capacity;
}

/* Frees IMAGE's buffers when they hold more than a job's share of what may be kept. */
static void trim(struct image_stream *stream, struct zip_image *image)
{
    if (held_bytes(image) <= MEMORY_BUDGET_KEPT / stream->job_count)
        return;
    free(image->bytes);
    free(image->output);
    image->bytes = image->output = NULL;
    image->capacity = image->output_capacity = 0;
    jpeg_image_free(&image->image);
}

static int write_oldest(struct image_stream *stream)
{
    void *argument;
    int result = ordered_pool_collect(stream->pool, &argument);
    struct zip_image *image = argument;
    if (result == EXIT_OK)
        result = stream->pass->write(stream->pass->context, image);
    if (result == EXIT_OK)
        converter_report_done(stream->pass->arguments, ++stream->written);
    memory_budget_give(&stream->budget, image->charged);
    image->charged = 0;
    trim(stream, image);
    return result;
}

/* What decoding IMAGE's member will take, by its header: its bytes, its pixels and coefficients
   (none when it is no JPEG or too large: the decoding refuses it before allocating any), what the
   converter makes of them. */
static uint64_t decoding_cost(const struct image_stream *stream, const struct zip_image *image)
{
    uint64_t cost = image->capacity + stream->pass->job_bytes;
    struct jpeg_header header;
    if (jpeg_probe(image->bytes, image->size, image->label, &header) != EXIT_OK) {
        error_clear();
        return cost;
    }
    if ((uint64_t)header.width * header.height > ZIP_IMAGES_MAX_PIXELS)
        return cost;
    return cost + jpeg_decode_bytes(&header, false);
}

/* Writes older images until IMAGE's cost fits the budget beside those still on their way. */
static int submit(struct image_stream *stream, struct zip_image *image)
{
    uint64_t cost = decoding_cost(stream, image);
    int result = EXIT_OK;
    while (result == EXIT_OK && !memory_budget_fits(&stream->budget, cost) &&
           ordered_pool_pending(stream->pool) > 0)
        result = write_oldest(stream);
    if (result != EXIT_OK)
        return result;
    memory_budget_charge(&stream->budget, cost);
    image->charged = cost;
    ordered_pool_submit(stream->pool, image);
    stream->queued++;
    return EXIT_OK;
}

static int read_member(struct zip_image *image, struct archive_stream *archive)
{
    return archive_stream_read_member(archive, &image->bytes, &image->capacity, &image->size,
                                      ZIP_IMAGES_MAX_MEMBER_BYTES);
}

static int queue_member(struct image_stream *stream, struct archive_stream *archive,
                        const char *name)
{
    const struct zip_images_pass *pass = stream->pass;
    size_t index = stream->streamed++;
    if (index == pass->names->count)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: a member its central "
                         "directory does not list", pass->path, name);
    if (strcmp(name, zip_names_at(pass->names, index)) != 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: where its central "
                         "directory lists %s", pass->path, name, zip_names_at(pass->names, index));
    uint64_t row = 0;
    bool keep = true;
    int result = pass->place(pass->context, index, name, &row, &keep);
    if (result != EXIT_OK || !keep)
        return result;
    if (stream->queued == pass->total)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: more images than its "
                         "central directory lists (%" PRIu64 ")", pass->path, name, pass->total);
    if (ordered_pool_full(stream->pool) && (result = write_oldest(stream)) != EXIT_OK)
        return result;
    struct zip_image *image = &stream->jobs[stream->next_job];
    stream->next_job = (stream->next_job + 1) % stream->job_count;
    snprintf(image->label, sizeof image->label, "%s: %s", pass->path, name);
    image->row = row;
    result = read_member(image, archive);
    if (result == EXIT_OK)
        result = submit(stream, image);
    return result;
}

static int stream_members(struct image_stream *stream)
{
    const struct zip_images_pass *pass = stream->pass;
    struct archive_stream *archive = NULL;
    int result = archive_stream_open(&archive, pass->path, ARCHIVE_STREAM_ZIP, 1);
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        result = archive_stream_next(archive, &name, &size);
        if (result != EXIT_OK || name == NULL)
            break;
        result = queue_member(stream, archive, name);
    }
    while (result == EXIT_OK && ordered_pool_pending(stream->pool) > 0)
        result = write_oldest(stream);
    if (archive != NULL)
        archive_stream_close(archive);
    if (result == EXIT_OK && stream->streamed != pass->names->count)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: listed in its "
                           "central directory, not streamed", pass->path,
                           zip_names_at(pass->names, stream->streamed));
    if (result == EXIT_OK && stream->written != pass->total)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %" PRIu64 " images "
                           "streamed, its central directory lists %" PRIu64, pass->path,
                           stream->written, pass->total);
    return result;
}

static void free_jobs(struct image_stream *stream)
{
    for (size_t index = 0; stream->jobs != NULL && index < stream->job_count; index++) {
        free(stream->jobs[index].bytes);
        free(stream->jobs[index].output);
        jpeg_image_free(&stream->jobs[index].image);
    }
    free(stream->jobs);
}

int zip_images_run(const struct zip_images_pass *pass)
{
    unsigned threads = pass->arguments->threads;
    size_t jobs = (size_t)threads * JOBS_PER_THREAD;
    size_t affordable = JOBS_MEMORY / (pass->job_bytes ? pass->job_bytes : 1);
    if (jobs > affordable)
        jobs = affordable;
    if (jobs > JOBS_MOST)
        jobs = JOBS_MOST;
    if (jobs < (size_t)threads + 2)
        jobs = (size_t)threads + 2;
    struct image_stream stream = {.pass = pass, .job_count = threads > 1 ? jobs : 1};
    stream.jobs = calloc(stream.job_count, sizeof *stream.jobs);
    if (stream.jobs == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    for (size_t index = 0; index < stream.job_count; index++)
        stream.jobs[index].pass = pass;
    converter_report_stage(pass->arguments, pass->path, pass->total);
    int result = memory_budget_init(&stream.budget, MEMORY_BUDGET_IN_FLIGHT);
    if (result != EXIT_OK) {
        free(stream.jobs);
        return result;
    }
    result = ordered_pool_create_shared(&stream.pool, threads, stream.job_count, decode_job);
    if (result == EXIT_OK)
        result = stream_members(&stream);
    ordered_pool_destroy(stream.pool);
    memory_budget_destroy(&stream.budget);
    free_jobs(&stream);
    return result;
}
