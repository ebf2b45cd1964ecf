/* {images: DIR} and {classes: DIR} entries: the PNG and JPEG images of a folder tree in
   ImageFolder's order, decoded to uint8 channel x height x width on worker threads and handed
   back in order; or each image's class, the index of its sorted subfolder (int64, one per
   example). The probe reads only each image's header. */
#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/formats/jpeg.h"
#include "common/formats/png_rgb.h"
#include "common/h5py/h5py_reader.h"
#include "image_file.h"
#include "image_walk.h"
#include "input_kinds.h"

#include <stdlib.h>
#include <string.h>

struct image_job {
    const char *path;
    struct image_file file; /* the bytes and the decoded pixels, reused job after job */
};

struct input_reader {
    const struct input_facts *facts;
    bool classes;
    struct image_walk walk; /* classes: the walk again */
    int64_t *labels;
    struct ordered_pool *pool;
    struct image_job *jobs; /* a ring one longer than the pool's depth */
    size_t ring;
    size_t submitted, collected;
    uint32_t shape[3];
};

static int classes_probe(const struct input_context *context, const struct pack_input *input,
                         struct input_facts *facts, struct image_walk *walk)
{
    facts->type = ELEMENT_INT64;
    facts->examples = walk->count;
    facts->example_rank = 1;
    facts->example_shape[0] = 1;
    facts->class_names = walk->class_names;
    facts->class_count = walk->class_count;
    walk->class_names = NULL;
    walk->class_count = 0;
    (void)context;
    (void)input;
    return EXIT_OK;
}

/* An image header read on a worker thread. */
struct probe_job {
    const char *path;
    struct image_file file;
    uint64_t shape[3];
};

static int probe_job_run(void *argument)
{
    struct probe_job *job = argument;
    return image_file_probe(&job->file, job->path, job->shape);
}

/* Each image's header, read on THREADS workers: the channels, height and width the first has,
   ragged when one differs. */
static int images_probe_headers(struct input_facts *facts, const struct image_walk *walk,
                                unsigned threads)
{
    facts->type = ELEMENT_UINT8;
    facts->examples = walk->count;
    facts->example_rank = 3;
    size_t depth = (size_t)threads * 4;
    struct probe_job *jobs = calloc(depth, sizeof *jobs);
    struct ordered_pool *pool = NULL;
    int result = jobs == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : ordered_pool_create(&pool, threads, depth, probe_job_run);
    size_t submitted = 0;
    for (size_t collected = 0; collected < walk->count && result == EXIT_OK; collected++) {
        while (submitted < walk->count && !ordered_pool_full(pool)) {
            jobs[submitted % depth].path = walk->paths[submitted];
            ordered_pool_submit(pool, &jobs[submitted++ % depth]);
        }
        void *done;
        result = ordered_pool_collect(pool, &done);
        const struct probe_job *job = done;
        if (result == EXIT_OK && collected == 0)
            memcpy(facts->example_shape, job->shape, sizeof job->shape);
        else if (result == EXIT_OK)
            facts->ragged |= memcmp(facts->example_shape, job->shape, sizeof job->shape) != 0;
    }
    if (pool != NULL)
        ordered_pool_destroy(pool);
    for (size_t index = 0; jobs != NULL && index < depth; index++)
        image_file_free(&jobs[index].file);
    free(jobs);
    return result;
}

static int images_probe(const struct input_context *context, const struct pack_input *input,
                        struct input_facts *facts)
{
    struct image_walk walk;
    int result = image_walk(input->path, input->kind == INPUT_CLASSES, &walk);
    if (result != EXIT_OK)
        return result;
    result = input->kind == INPUT_CLASSES ? classes_probe(context, input, facts, &walk)
                                          : images_probe_headers(facts, &walk, context->threads);
    for (size_t index = 0; index < walk.count && result == EXIT_OK; index++) {
        char *name = input_relative_name(context->spec, walk.paths[index]);
        result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : input_facts_add_file(facts, walk.paths[index], name);
        free(name);
    }
    image_walk_free(&walk);
    return result;
}

static int decode_job(void *argument)
{
    struct image_job *job = argument;
    return image_file_decode(&job->file, job->path);
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
    size_t depth = (size_t)threads * 2;
    (*reader)->ring = depth + 1;
    (*reader)->jobs = calloc((*reader)->ring, sizeof *(*reader)->jobs);
    if ((*reader)->jobs == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    return ordered_pool_create(&(*reader)->pool, threads, depth, decode_job);
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

/* Submits decodings while the pool has room, then hands back the oldest, decoded. */
static int images_next(struct input_reader *reader, struct example_block *block)
{
    if (reader->classes)
        return classes_next(reader, block);
    *block = (struct example_block){0};
    size_t total = reader->facts->file_count;
    while (reader->submitted < total && !ordered_pool_full(reader->pool)) {
        struct image_job *job = &reader->jobs[reader->submitted % reader->ring];
        job->path = reader->facts->files[reader->submitted++];
        ordered_pool_submit(reader->pool, job);
    }
    if (reader->collected == total)
        return EXIT_OK;
    void *collected;
    int result = ordered_pool_collect(reader->pool, &collected);
    reader->collected++;
    if (result != EXIT_OK)
        return result;
    const struct image_job *job = collected;
    reader->shape[0] = job->file.channels;
    reader->shape[1] = job->file.height;
    reader->shape[2] = job->file.width;
    *block = (struct example_block){job->file.pixels, 1, reader->shape};
    return EXIT_OK;
}

static void images_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    if (reader->pool != NULL)
        ordered_pool_destroy(reader->pool);
    for (size_t index = 0; reader->jobs != NULL && index < reader->ring; index++)
        image_file_free(&reader->jobs[index].file);
    free(reader->jobs);
    free(reader->labels);
    image_walk_free(&reader->walk);
    free(reader);
}

const struct input_kind_reader images_input_reader = {images_probe, images_open, images_next,
                                                      images_close, NULL};
