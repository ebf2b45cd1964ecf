/* Encodes a split's images to PNG on worker threads, one block of examples at a time: the calling
   thread reads a block (HDF5 is not thread-safe), the workers and it encode, then it hands the
   images on in order. Memory: one block of examples and their PNGs. */
#include "png_blocks.h"

#include "common/base/error.h"
#include "common/formats/png_encode.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Large blocks keep the threads' wait at each block's end small beside its encoding, even when
   a loaded machine deschedules one of them for a while. */
enum { MAX_THREADS = 64, MAX_BLOCK = 4096, BLOCK_BYTES = 8 << 20 };

struct block_item {
    void *data; /* variable-length sources: the example's own copy */
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    int rank;
    struct png_bytes png;
    int result;
    char message[256];
};

struct block_run {
    struct export_job *job;
    unsigned threads;
    uint64_t block;            /* examples per block */
    unsigned char *raw;        /* fixed sources: the block's examples */
    struct block_item items[MAX_BLOCK];
    uint64_t first;            /* the current block's first example in the split */
    uint64_t count;            /* examples in the current block */
    atomic_ulong next;
    struct image images[MAX_THREADS];
};

static void item_encode(struct block_run *run, uint64_t index, struct image *image)
{
    struct block_item *item = &run->items[index];
    const struct example_source *data = run->job->data;
    const void *elements = data->variable ? item->data : run->raw + index * data->fixed.example_bytes;
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
    struct block_run *run = worker->run;
    unsigned long index;
    while ((index = atomic_fetch_add(&run->next, 1)) < run->count)
        item_encode(run, index, &run->images[worker->slot]);
    return NULL;
}

/* Encodes the current block on RUN->threads threads, this one included. */
static int block_encode(struct block_run *run)
{
    pthread_t threads[MAX_THREADS];
    struct worker workers[MAX_THREADS];
    unsigned started = 0;
    atomic_store(&run->next, 0);
    for (unsigned slot = 1; slot < run->threads && slot < run->count; slot++) {
        workers[slot] = (struct worker){run, slot};
        if (pthread_create(&threads[slot], NULL, worker_run, &workers[slot]) != 0)
            break;
        started = slot;
    }
    workers[0] = (struct worker){run, 0};
    worker_run(&workers[0]);
    for (unsigned slot = 1; slot <= started; slot++)
        pthread_join(threads[slot], NULL);
    for (uint64_t index = 0; index < run->count; index++)
        if (run->items[index].result != EXIT_OK)
            return error_set(run->items[index].result, "cannot encode example %llu of %s: %s",
                             (unsigned long long)(run->first + index), run->job->data->name,
                             run->items[index].message);
    return EXIT_OK;
}

static int block_read(struct block_run *run)
{
    const struct example_source *data = run->job->data;
    if (!data->variable) {
        for (uint64_t index = 0; index < run->count; index++) {
            run->items[index].rank = data->fixed.rank - 1;
            memcpy(run->items[index].shape, data->fixed.shape + 1,
                   (size_t)run->items[index].rank * sizeof(uint64_t));
        }
        return example_source_read(data, run->first, run->count, run->raw);
    }
    /* Variable-size examples: the block ends early once it holds 16 MiB. */
    uint64_t bytes = 0;
    for (uint64_t index = 0; index < run->count; index++) {
        struct block_item *item = &run->items[index];
        free(item->data);
        int result = example_source_read_one(data, run->first + index, &item->data, item->shape,
                                             &item->rank);
        if (result != EXIT_OK)
            return result;
        uint64_t elements = 1;
        for (int axis = 0; axis < item->rank; axis++)
            elements *= item->shape[axis];
        bytes += elements * data->type.size;
        if (bytes >= (uint64_t)16 << 20)
            run->count = index + 1;
    }
    return EXIT_OK;
}

static int block_hand_on(struct block_run *run, const double *labels, encoded_consumer consume,
                         void *context)
{
    for (uint64_t index = 0; index < run->count; index++) {
        struct encoded_example example = {run->first + index, labels[index],
                                          run->items[index].png.data, run->items[index].png.size};
        int result = consume(context, &example);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static void run_free(struct block_run *run)
{
    for (size_t index = 0; index < MAX_BLOCK; index++) {
        free(run->items[index].data);
        png_bytes_free(&run->items[index].png);
    }
    for (size_t slot = 0; slot < MAX_THREADS; slot++)
        image_free(&run->images[slot]);
    free(run->raw);
    free(run);
}

static unsigned threads_choose(const struct export_request *request)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = request->threads ? request->threads : online > 0 ? (unsigned)online : 1;
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

int png_blocks_run(struct export_job *job, encoded_consumer consume, void *context)
{
    struct block_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    run->job = job;
    run->threads = threads_choose(job->request);
    size_t bytes = job->data->variable ? (size_t)1 << 16 : job->data->fixed.example_bytes;
    run->block = BLOCK_BYTES / (bytes ? bytes : 1);
    run->block = run->block > MAX_BLOCK ? MAX_BLOCK : run->block ? run->block : 1;
    run->raw = job->data->variable ? NULL : malloc(run->block * bytes + 1);
    double *labels = malloc(MAX_BLOCK * sizeof *labels);
    uint64_t total = job->data->selection.count;
    int result = labels && (job->data->variable || run->raw) ? EXIT_OK
                 : error_set(EXIT_OTHER, "out of memory");
    for (run->first = 0; result == EXIT_OK && run->first < total; run->first += run->count) {
        run->count = total - run->first < run->block ? total - run->first : run->block;
        result = block_read(run);
        if (result == EXIT_OK)
            result = export_labels_read(job, run->first, run->count, labels);
        if (result == EXIT_OK)
            result = block_encode(run);
        if (result == EXIT_OK)
            result = block_hand_on(run, labels, consume, context);
        export_progress(job, run->first + run->count, total);
    }
    free(labels);
    run_free(run);
    return result;
}
