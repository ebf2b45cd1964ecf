/* {images: DIR} and {classes: DIR} entries: the PNG and JPEG images of a folder tree in
   ImageFolder's order, decoded to uint8 channel x height x width on worker threads and handed
   back in order; or each image's class, the index of its sorted subfolder (int64, one per
   example). The probe reads only each image's header, on the workers too; the decoding workers
   hand each file's bytes to the provenance (one read of each image). Workers take images in
   batches (of about BATCH_BYTES decoded, at most BATCH_MAX images): one hand-over per image cost
   more than decoding a small one. THREADS + 2 batches are under way at most, and up to SPARE_MAX
   more (two a thread: fewer left the workers idle while a write waited for the disk), and no
   more than the memory budget allows: the probe finds what decoding the largest image holds (the
   file, its pixels twice, a progressive JPEG's coefficients), and batches of such images are
   handed out while they fit the budget, one at least; a batch's buffers grown beyond its share
   of what may be kept are freed once it is handed out. */
#include "common/base/error.h"
#include "common/base/memory_budget.h"
#include "common/base/ordered_pool.h"
#include "image_file.h"
#include "image_walk.h"
#include "input_kinds.h"

#include <stdlib.h>
#include <string.h>

/* PROBE_KEPT_BYTES: a file read whole for a header beyond its first 64 KiB is not kept. */
enum { BATCH_MAX = 16, BATCH_BYTES = 1 << 20, PROBE_BATCH = 64, SPARE_MAX = 6,
       PROBE_KEPT_BYTES = 1 << 20 };

/* Images FIRST to FIRST + COUNT of PATHS, probed or decoded by one worker. */
struct image_job {
    const char *const *paths;
    size_t first, count;
    struct provenance *provenance; /* decoding: takes each file's bytes, at its index below */
    const size_t *provenance_indices;
    struct image_file files[BATCH_MAX]; /* their bytes and pixels, reused batch after batch */
    uint64_t shapes[PROBE_BATCH][3];    /* probing: each image's channels, height, width */
    uint64_t decodings[PROBE_BATCH];    /* probing: what decoding each holds */
};

struct input_reader {
    const struct input_facts *facts;
    bool classes;
    struct image_walk walk; /* classes: the walk again */
    int64_t *labels;
    struct ordered_pool *pool;
    struct image_job *jobs; /* a ring one longer than the pool's depth */
    size_t ring, batch;
    size_t most_pending; /* the batches under way the memory budget allows */
    size_t submitted, collected; /* images */
    struct image_job *current; /* the batch being handed out, and where in it */
    size_t position;
    uint32_t shape[3];
};

static int probe_batch(void *argument)
{
    struct image_job *job = argument;
    for (size_t index = 0; index < job->count; index++) {
        struct image_file *file = &job->files[0];
        int result = image_file_probe(file, job->paths[job->first + index], job->shapes[index]);
        job->decodings[index] = file->decoding_bytes;
        if (file->capacity > PROBE_KEPT_BYTES)
            image_file_free(file);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static int decode_batch(void *argument)
{
    struct image_job *job = argument;
    for (size_t index = 0; index < job->count; index++) {
        const struct image_file *file = &job->files[index];
        int result = image_file_decode(&job->files[index], job->paths[job->first + index]);
        if (result == EXIT_OK && job->provenance != NULL)
            result = provenance_supply(job->provenance,
                                       job->provenance_indices[job->first + index], file->bytes,
                                       file->size);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

/* Hands TOTAL images of PATHS to a pool in batches of BATCH, into the RING jobs, while it has
   room and fewer than MOST are pending; *SUBMITTED counts the images handed so far. */
static void submit_batches(struct ordered_pool *pool, struct image_job *jobs, size_t ring,
                           size_t most, const char *const *paths, size_t total, size_t batch,
                           size_t *submitted)
{
    while (*submitted < total && !ordered_pool_full(pool) && ordered_pool_pending(pool) < most) {
        struct image_job *job = &jobs[*submitted / batch % ring];
        job->paths = paths;
        job->first = *submitted;
        job->count = total - *submitted < batch ? total - *submitted : batch;
        *submitted += job->count;
        ordered_pool_submit(pool, job);
    }
}

static void jobs_free(struct image_job *jobs, size_t count)
{
    for (size_t index = 0; jobs != NULL && index < count; index++)
        for (size_t file = 0; file < BATCH_MAX; file++)
            image_file_free(&jobs[index].files[file]);
    free(jobs);
}

/* Each image's header, read on THREADS workers: the channels, height and width the first has,
   ragged when one differs; the largest image's bytes. */
static int images_probe_headers(struct input_facts *facts, const struct image_walk *walk,
                                unsigned threads)
{
    facts->type = ELEMENT_UINT8;
    facts->examples = walk->count;
    facts->example_rank = 3;
    size_t depth = (size_t)threads * 2, submitted = 0;
    struct image_job *jobs = calloc(depth, sizeof *jobs);
    struct ordered_pool *pool = NULL;
    int result = jobs == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : ordered_pool_create(&pool, threads, depth, probe_batch);
    for (size_t collected = 0; collected < walk->count && result == EXIT_OK;) {
        submit_batches(pool, jobs, depth, depth, (const char *const *)walk->paths, walk->count,
                       PROBE_BATCH, &submitted);
        void *done;
        result = ordered_pool_collect(pool, &done);
        const struct image_job *job = done;
        for (size_t index = 0; result == EXIT_OK && index < job->count; index++, collected++) {
            const uint64_t *shape = job->shapes[index];
            if (collected == 0)
                memcpy(facts->example_shape, shape, 3 * sizeof *shape);
            facts->ragged |= memcmp(facts->example_shape, shape, 3 * sizeof *shape) != 0;
            if (shape[0] * shape[1] * shape[2] > facts->largest_example)
                facts->largest_example = shape[0] * shape[1] * shape[2];
            if (job->decodings[index] > facts->largest_decoding)
                facts->largest_decoding = job->decodings[index];
        }
    }
    if (pool != NULL)
        ordered_pool_destroy(pool);
    jobs_free(jobs, depth);
    return result;
}

static int images_probe(const struct input_context *context, const struct pack_input *input,
                        struct input_facts *facts)
{
    struct image_walk walk;
    int result = image_walk(input->path, input->kind == INPUT_CLASSES, &walk);
    if (result != EXIT_OK)
        return result;
    if (input->kind == INPUT_CLASSES) {
        facts->type = ELEMENT_INT64;
        facts->examples = walk.count;
        facts->example_rank = 1;
        facts->example_shape[0] = 1;
        facts->class_names = walk.class_names;
        facts->class_count = walk.class_count;
        walk.class_names = NULL;
        walk.class_count = 0;
    } else {
        result = images_probe_headers(facts, &walk, context->threads);
    }
    for (size_t index = 0; index < walk.count && result == EXIT_OK; index++) {
        char *name = input_relative_name(context->spec, walk.paths[index]);
        result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : input_facts_add_file(facts, walk.paths[index], name);
        free(name);
    }
    image_walk_free(&walk);
    return result;
}

/* The walk again, which must give what the probe found. */
static int classes_open(const struct pack_input *input, struct input_reader *reader)
{
    int result = image_walk(input->path, true, &reader->walk);
    bool same = result == EXIT_OK && reader->walk.count == reader->facts->examples &&
                reader->walk.class_count == reader->facts->class_count;
    for (size_t index = 0; same && index < reader->walk.class_count; index++)
        same = strcmp(reader->walk.class_names[index], reader->facts->class_names[index]) == 0;
    if (result == EXIT_OK && !same)
        return error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s", input->path);
    reader->labels = result == EXIT_OK ? malloc(INPUT_BLOCK_BYTES) : NULL;
    if (result == EXIT_OK && reader->labels == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    return result;
}

static int images_open(const struct input_context *context, const struct pack_input *input,
                       const struct input_facts *facts, struct input_reader **reader)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    (*reader)->facts = facts;
    (*reader)->classes = input->kind == INPUT_CLASSES;
    if ((*reader)->classes)
        return classes_open(input, *reader);
    unsigned threads = context->threads > 0 ? context->threads : 1;
    size_t spare = threads < SPARE_MAX / 2 ? (size_t)threads * 2 : SPARE_MAX;
    size_t depth = (size_t)threads + 2 + spare;
    uint64_t largest = facts->largest_example > 0 ? facts->largest_example : 1;
    (*reader)->batch = largest >= BATCH_BYTES / BATCH_MAX ? (size_t)(BATCH_BYTES / largest)
                                                          : BATCH_MAX;
    if ((*reader)->batch == 0)
        (*reader)->batch = 1;
    uint64_t batch_bytes = (*reader)->batch * (facts->largest_decoding > 0 ? facts->largest_decoding
                                                                           : 1);
    (*reader)->most_pending = MEMORY_BUDGET_IN_FLIGHT / batch_bytes > 0
                                  ? (size_t)(MEMORY_BUDGET_IN_FLIGHT / batch_bytes) : 1;
    (*reader)->ring = depth + 1;
    (*reader)->jobs = calloc((*reader)->ring, sizeof *(*reader)->jobs);
    if ((*reader)->jobs == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    for (size_t job = 0; job < (*reader)->ring && facts->provenance_indices != NULL; job++) {
        (*reader)->jobs[job].provenance = context->provenance;
        (*reader)->jobs[job].provenance_indices = facts->provenance_indices;
    }
    return ordered_pool_create(&(*reader)->pool, threads, depth, decode_batch);
}

static int classes_next(struct input_reader *reader, struct example_block *block)
{
    size_t left = reader->walk.count - reader->collected;
    size_t count = left < INPUT_BLOCK_BYTES / sizeof(int64_t) ? left
                                                              : INPUT_BLOCK_BYTES / sizeof(int64_t);
    for (size_t index = 0; index < count; index++)
        reader->labels[index] = reader->walk.classes[reader->collected + index];
    reader->collected += count;
    *block = (struct example_block){.data = reader->labels, .count = count};
    return EXIT_OK;
}

/* Frees the buffers of JOB's files when together they hold more than a batch's share of what
   may be kept. */
static void trim(const struct input_reader *reader, struct image_job *job)
{
    uint64_t held = 0;
    for (size_t index = 0; index < BATCH_MAX; index++) {
        const struct image_file *file = &job->files[index];
        held += file->capacity + file->jpeg.capacity + file->jpeg.scratch_capacity +
                (uint64_t)file->png.channels * file->png.height * file->png.width;
    }
    if (held <= MEMORY_BUDGET_KEPT / reader->ring)
        return;
    for (size_t index = 0; index < BATCH_MAX; index++)
        image_file_free(&job->files[index]);
}

/* The next image: from the batch at hand, else from the oldest batch decoded once more batches
   are handed to the workers. */
static int images_next(struct input_reader *reader, struct example_block *block)
{
    if (reader->classes)
        return classes_next(reader, block);
    *block = (struct example_block){0};
    size_t total = reader->facts->file_count;
    if (reader->current == NULL || reader->position == reader->current->count) {
        if (reader->current != NULL)
            trim(reader, reader->current);
        submit_batches(reader->pool, reader->jobs, reader->ring, reader->most_pending,
                       (const char *const *)reader->facts->files, total, reader->batch,
                       &reader->submitted);
        if (reader->collected == total)
            return EXIT_OK;
        void *collected;
        int result = ordered_pool_collect(reader->pool, &collected);
        if (result != EXIT_OK)
            return result;
        reader->current = collected;
        reader->position = 0;
    }
    const struct image_file *file = &reader->current->files[reader->position++];
    reader->collected++;
    reader->shape[0] = file->channels;
    reader->shape[1] = file->height;
    reader->shape[2] = file->width;
    *block = (struct example_block){file->pixels, 1, reader->shape};
    return EXIT_OK;
}

static void images_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    if (reader->pool != NULL)
        ordered_pool_destroy(reader->pool);
    jobs_free(reader->jobs, reader->ring);
    free(reader->labels);
    image_walk_free(&reader->walk);
    free(reader);
}

const struct input_kind_reader images_input_reader = {images_probe, images_open, images_next,
                                                      images_close, NULL};
