/* Encodes a split's images to PNG on worker threads, one block of examples at a time, in a
   pipeline of two blocks: while the workers encode one, the calling thread hands the one before on
   in order and reads the next (HDF5 is not thread-safe), then joins the encoding. Memory: two
   blocks of examples and their PNGs. */
#include "png_blocks.h"

#include "common/base/error.h"
#include "common/base/threads.h"
#include "common/formats/png/png_encode.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Blocks hold export_block_examples examples (4 MiB of them), at most MAX_BLOCK. */
enum { MAX_BLOCK = 4096 };

struct block_item {
    void *data; /* variable-length sources: the example's own copy */
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    int rank;
    struct png_bytes png;
    const char *extension;
    int result;
    char message[256];
};

/* One block of the pipeline: its examples as read, their labels and their PNGs. */
struct block {
    unsigned char *raw; /* fixed sources: the block's examples */
    double labels[MAX_BLOCK];
    struct block_item items[MAX_BLOCK];
    uint64_t first; /* the block's first example in the split */
    uint64_t count; /* examples in the block; 0 past the split's end */
    atomic_ulong next;
};

struct block_run {
    struct export_job *job;
    unsigned threads;
    uint64_t block_size; /* examples per block */
    struct block blocks[2];
    struct block *encoding; /* the block the workers take examples from */
    struct image images[THREADS_MAX];
};

/* An encoded example's bytes handed on as stored: the file an image-list or im2rec would hold. */
static int item_pass_through(struct block_item *item, uint64_t number, const char *source)
{
    size_t size = (size_t)item->shape[0];
    item->extension = image_encoded_extension(item->data, size);
    if (item->extension == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "example %llu of %s is neither a JPEG nor a PNG",
                         (unsigned long long)number, source);
    if (size > item->png.capacity) {
        uint8_t *grown = realloc(item->png.data, size);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        item->png.data = grown;
        item->png.capacity = size;
    }
    memcpy(item->png.data, item->data, size);
    item->png.size = size;
    return EXIT_OK;
}

static void item_encode(struct block_run *run, struct block *block, uint64_t index,
                        struct image *image)
{
    struct block_item *item = &block->items[index];
    const struct example_source *data = run->job->data;
    item->extension = "png";
    if (data->encoded) {
        item->result = item_pass_through(item, block->first + index, data->name);
        if (item->result != EXIT_OK)
            snprintf(item->message, sizeof item->message, "%s", error_message());
        return;
    }
    const void *elements =
        data->variable ? item->data : block->raw + index * data->fixed.example_bytes;
    int result = image_from_example(elements, data->type, item->shape, item->rank,
                                    &run->job->axes, image);
    if (result == EXIT_OK)
        result = png_encode_memory(image->pixels, image->width, image->height, image->channels,
                                   &item->png);
    item->result = result;
    if (result != EXIT_OK)
        snprintf(item->message, sizeof item->message, "%s", error_message());
}

struct worker {
    struct block_run *run;
    unsigned slot;
};

static void *worker_run(void *argument)
{
    struct worker *worker = argument;
    struct block *block = worker->run->encoding;
    unsigned long index;
    while ((index = atomic_fetch_add(&block->next, 1)) < block->count)
        item_encode(worker->run, block, index, &worker->run->images[worker->slot]);
    return NULL;
}

/* Starts RUN->threads - 1 workers on BLOCK; returns how many started. */
static unsigned encoding_start(struct block_run *run, struct block *block, pthread_t *threads,
                               struct worker *workers)
{
    unsigned started = 0;
    run->encoding = block;
    atomic_store(&block->next, 0);
    for (unsigned slot = 1; slot < run->threads && slot < block->count; slot++) {
        workers[slot] = (struct worker){run, slot};
        if (threads_start(&threads[slot], worker_run, &workers[slot]) != 0)
            break;
        started = slot;
    }
    return started;
}

/* Encodes what is left of the block in this thread too, joins the workers and checks the items. */
static int encoding_finish(struct block_run *run, unsigned started, pthread_t *threads,
                           struct worker *workers)
{
    struct block *block = run->encoding;
    workers[0] = (struct worker){run, 0};
    worker_run(&workers[0]);
    for (unsigned slot = 1; slot <= started; slot++)
        pthread_join(threads[slot], NULL);
    for (uint64_t index = 0; index < block->count; index++)
        if (block->items[index].result != EXIT_OK)
            return error_set(block->items[index].result, "cannot encode example %llu of %s: %s",
                             (unsigned long long)(block->first + index), run->job->data->name,
                             block->items[index].message);
    return EXIT_OK;
}

static int variable_read(struct block_run *run, struct block *block)
{
    const struct example_source *data = run->job->data;
    /* Variable-size examples: the block ends early once it holds 16 MiB. */
    uint64_t bytes = 0;
    for (uint64_t index = 0; index < block->count; index++) {
        struct block_item *item = &block->items[index];
        free(item->data);
        item->data = NULL;
        int result = example_source_read_one(data, block->first + index, &item->data,
                                             item->shape, &item->rank);
        if (result != EXIT_OK)
            return result;
        uint64_t elements = 1;
        for (int axis = 0; axis < item->rank; axis++)
            elements *= item->shape[axis];
        bytes += elements * data->type.size;
        if (bytes >= (uint64_t)16 << 20)
            block->count = index + 1;
    }
    return EXIT_OK;
}

/* Reads the examples from FIRST on into BLOCK (none past the split's end), with their labels. */
static int block_read(struct block_run *run, struct block *block, uint64_t first)
{
    const struct example_source *data = run->job->data;
    uint64_t total = data->selection.count;
    block->first = first;
    block->count = total - first < run->block_size ? total - first : run->block_size;
    if (block->count == 0)
        return EXIT_OK;
    int result;
    if (data->variable) {
        result = variable_read(run, block);
    } else {
        for (uint64_t index = 0; index < block->count; index++) {
            block->items[index].rank = data->fixed.rank - 1;
            memcpy(block->items[index].shape, data->fixed.shape + 1,
                   (size_t)block->items[index].rank * sizeof(uint64_t));
        }
        result = example_source_read(data, first, block->count, block->raw);
    }
    return result == EXIT_OK ? export_labels_read(run->job, first, block->count, block->labels)
                             : result;
}

static int block_hand_on(const struct block *block, encoded_consumer consume, void *context)
{
    for (uint64_t index = 0; index < block->count; index++) {
        struct encoded_example example = {block->first + index, block->labels[index],
                                          block->items[index].png.data,
                                          block->items[index].png.size,
                                          block->items[index].extension};
        int result = consume(context, &example);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static void run_free(struct block_run *run)
{
    for (size_t number = 0; number < 2; number++) {
        for (size_t index = 0; index < MAX_BLOCK; index++) {
            free(run->blocks[number].items[index].data);
            png_bytes_free(&run->blocks[number].items[index].png);
        }
        free(run->blocks[number].raw);
    }
    for (size_t slot = 0; slot < THREADS_MAX; slot++)
        image_free(&run->images[slot]);
    free(run);
}

static unsigned threads_choose(const struct export_request *request)
{
    unsigned threads = request->threads > 0 ? request->threads : threads_default();
    return threads > THREADS_MAX ? THREADS_MAX : threads;
}

static struct block_run *run_create(struct export_job *job)
{
    struct block_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return NULL;
    run->job = job;
    run->threads = threads_choose(job->request);
    size_t bytes = job->data->variable ? (size_t)1 << 16 : job->data->fixed.example_bytes;
    run->block_size = export_block_examples(bytes);
    run->block_size = run->block_size < MAX_BLOCK ? run->block_size : MAX_BLOCK;
    for (size_t number = 0; number < 2 && !job->data->variable; number++)
        if ((run->blocks[number].raw = malloc(run->block_size * bytes + 1)) == NULL) {
            run_free(run);
            return NULL;
        }
    return run;
}

/* One step of the pipeline: encodes CURRENT while handing PREVIOUS on and reading NEXT. */
static int pipeline_step(struct block_run *run, struct block *previous, struct block *current,
                         struct block *next, encoded_consumer consume, void *context)
{
    pthread_t threads[THREADS_MAX];
    struct worker workers[THREADS_MAX];
    unsigned started = encoding_start(run, current, threads, workers);
    int result = previous != NULL ? block_hand_on(previous, consume, context) : EXIT_OK;
    if (result == EXIT_OK && previous != NULL)
        export_progress(run->job, previous->first + previous->count,
                        run->job->data->selection.count);
    if (result == EXIT_OK)
        result = block_read(run, next, current->first + current->count);
    if (result != EXIT_OK)
        atomic_store(&current->next, current->count);
    int encoded = encoding_finish(run, started, threads, workers);
    return result != EXIT_OK ? result : encoded;
}

int png_blocks_run(struct export_job *job, encoded_consumer consume, void *context)
{
    struct block_run *run = run_create(job);
    if (run == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct block *previous = NULL, *current = &run->blocks[0], *next = &run->blocks[1];
    int result = block_read(run, current, 0);
    while (result == EXIT_OK && current->count > 0) {
        result = pipeline_step(run, previous, current, next, consume, context);
        previous = current;
        current = next;
        next = previous;
    }
    if (result == EXIT_OK && previous != NULL)
        result = block_hand_on(previous, consume, context);
    if (result == EXIT_OK)
        export_progress(job, job->data->selection.count, job->data->selection.count);
    run_free(run);
    return result;
}
