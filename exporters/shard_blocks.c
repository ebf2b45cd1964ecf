/* The shard pipeline: blocks read in the calling thread (HDF5 is not thread-safe), encoded by an
   ordered pool of workers, handed on in order. */
#include "shard_blocks.h"

#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/base/threads.h"
#include "common/formats/jpeg/jpeg_read.h"
#include "stored_bytes.h"

#include <stdlib.h>
#include <string.h>

/* A block holds about BLOCK_BYTES of source data, at most BLOCK_EXAMPLES examples. */
enum { BLOCK_BYTES = 1 << 20, BLOCK_EXAMPLES = 1024, VLEN_GUESS = 1 << 16 };

struct shard_run {
    const struct shard_pipeline *pipeline;
    struct stored_bytes reader;
    size_t source_count;
    size_t capacity;
    struct shard_block blocks[SHARD_BLOCKS_DEPTH];
};

const struct shard_payload *shard_block_payload(const struct shard_block *block, size_t index,
                                                size_t source)
{
    return &block->payloads[index * block->run->source_count + source];
}

int shard_block_output(struct shard_block *block, const void *data, size_t size,
                       unsigned char **at)
{
    if (block->output_size + size > block->output_capacity) {
        size_t capacity = block->output_capacity ? block->output_capacity : 1 << 16;
        while (capacity < block->output_size + size)
            capacity *= 2;
        unsigned char *grown = realloc(block->output, capacity);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory encoding examples");
        block->output = grown;
        block->output_capacity = capacity;
    }
    *at = block->output + block->output_size;
    if (data != NULL)
        memcpy(*at, data, size);
    else
        memset(*at, 0, size);
    block->output_size += size;
    return EXIT_OK;
}

static int64_t label_integer(const void *data, struct numeric_type type)
{
    union {
        uint8_t u1; uint16_t u2; uint32_t u4; uint64_t u8;
        int8_t i1; int16_t i2; int32_t i4; int64_t i8;
    } value;
    memcpy(&value, data, type.size);
    if (type.kind == 'i')
        return type.size == 1 ? value.i1 : type.size == 2 ? value.i2
             : type.size == 4 ? value.i4 : value.i8;
    return type.size == 1 ? value.u1 : type.size == 2 ? value.u2
         : type.size == 4 ? (int64_t)value.u4 : (int64_t)value.u8;
}

static int jpeg_payload(struct shard_block *block, size_t index, const struct shard_source *item,
                        struct shard_payload *payload)
{
    const uint8_t *bytes = payload->data;
    if (payload->size < 3 || bytes[0] != 0xFF || bytes[1] != 0xD8 || bytes[2] != 0xFF)
        return error_set(EXIT_CORRUPT_INPUT, "cannot export example %llu of source %s: it does "
                         "not start with FF D8 FF, it is not a JPEG",
                         (unsigned long long)block->keys[index], item->source.name);
    if (!block->run->pipeline->coder.probe_jpeg)
        return EXIT_OK;
    struct jpeg_header header;
    char name[600];
    snprintf(name, sizeof name, "example %llu of source %s",
             (unsigned long long)block->keys[index], item->source.name);
    int result = jpeg_probe(payload->data, payload->size, name, &header);
    payload->width = header.width;
    payload->height = header.height;
    payload->channels = header.channels;
    return result;
}

static int png_payload(struct shard_block *block, size_t index, size_t source,
                       const struct shard_source *item, struct shard_payload *payload)
{
    struct png_bytes *png = &block->pngs[index * block->run->source_count + source];
    int result = image_from_example(payload->data, item->source.type, payload->shape,
                                    payload->rank, &item->axes, &block->image);
    if (result == EXIT_OK)
        result = png_encode_memory(block->image.pixels, block->image.width, block->image.height,
                                   block->image.channels, png);
    if (result != EXIT_OK)
        return error_set(result, "cannot encode example %llu of %s: %s",
                         (unsigned long long)block->keys[index], item->source.name,
                         error_message());
    payload->data = png->data;
    payload->size = png->size;
    payload->width = block->image.width;
    payload->height = block->image.height;
    payload->channels = (uint32_t)block->image.channels;
    return EXIT_OK;
}

static int example_encode(struct shard_block *block, size_t index)
{
    const struct shard_sources *sources = block->run->pipeline->sources;
    int result = EXIT_OK;
    for (size_t source = 0; result == EXIT_OK && source < sources->count; source++) {
        const struct shard_source *item = &sources->items[source];
        struct shard_payload *payload = &block->payloads[index * sources->count + source];
        if (!item->present)
            continue;
        if (item->role == SHARD_LABEL)
            payload->label = label_integer(payload->data, item->source.type);
        else if (item->role == SHARD_JPEG)
            result = jpeg_payload(block, index, item, payload);
        else if (item->role == SHARD_PNG)
            result = png_payload(block, index, source, item, payload);
    }
    const struct shard_form_coder *coder = &block->run->pipeline->coder;
    if (result == EXIT_OK && coder->encode != NULL)
        result = coder->encode(coder->context, block, index);
    block->ends[index] = block->output_size;
    return result;
}

static int block_encode(void *job)
{
    struct shard_block *block = job;
    block->output_size = 0;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < block->count; index++)
        result = example_encode(block, index);
    return result;
}

static int fixed_read(struct shard_block *block, size_t source)
{
    const struct shard_pipeline *pipeline = block->run->pipeline;
    struct shard_source *item = &pipeline->sources->items[source];
    const struct example_source *data = &item->source;
    int result = pipeline->order == NULL
                     ? example_source_read(data, block->first, block->count, block->raw[source])
                     : EXIT_OK;
    if (pipeline->order != NULL) {
        for (size_t index = 0; index < block->count; index++)
            block->stored[index] = h5py_selection_example(&data->selection, block->keys[index]);
        result = h5py_examples_read_indices(&data->fixed, block->stored, block->count,
                                            block->raw[source]);
    }
    for (size_t index = 0; result == EXIT_OK && index < block->count; index++) {
        struct shard_payload *payload = &block->payloads[index * block->run->source_count + source];
        payload->data = block->raw[source] + index * data->fixed.example_bytes;
        payload->size = data->fixed.example_bytes;
        payload->rank = data->fixed.rank - 1;
        memcpy(payload->shape, data->fixed.shape + 1, (size_t)payload->rank * sizeof(uint64_t));
    }
    return result;
}

/* Variable-length examples, one by one; the block ends early once it holds BLOCK_BYTES. */
static int vlen_read(struct shard_block *block, size_t index, size_t source, uint64_t *bytes)
{
    const struct shard_source *item = &block->run->pipeline->sources->items[source];
    size_t slot = index * block->run->source_count + source;
    struct shard_payload *payload = &block->payloads[slot];
    int result = example_source_read_one(&item->source, block->keys[index], &block->vlen[slot],
                                         payload->shape, &payload->rank);
    if (result != EXIT_OK)
        return result;
    uint64_t elements = 1;
    for (int axis = 0; axis < payload->rank; axis++)
        elements *= payload->shape[axis];
    payload->data = block->vlen[slot];
    payload->size = (size_t)elements * item->source.type.size;
    *bytes += payload->size;
    return EXIT_OK;
}

static bool stored_source(const struct shard_source *item)
{
    return item->present && item->role == SHARD_JPEG && item->source.vlen.shapes >= 0;
}

/* Stored JPEGs, in runs of consecutive examples; the block ends early once they hold
   BLOCK_BYTES. */
static int stored_read(struct shard_block *block, size_t source)
{
    const struct shard_source *item = &block->sources->items[source];
    const struct h5py_vlen_examples *vlen = &item->source.vlen;
    for (size_t index = 0; index < block->count; index++)
        block->stored[index] = h5py_selection_example(&item->source.selection,
                                                      block->keys[index]);
    int result = stored_bytes_sizes(&block->run->reader, vlen, block->stored, block->count,
                                    block->sizes);
    uint64_t bytes = 0;
    for (size_t index = 0; result == EXIT_OK && index < block->count; index++)
        if ((bytes += block->sizes[index]) >= BLOCK_BYTES)
            block->count = index + 1;
    for (size_t index = 0; index < block->count; index++)
        block->scratch[index] = NULL;
    if (result == EXIT_OK)
        result = stored_bytes_read(&block->run->reader, vlen, block->stored, block->count,
                                   block->sizes, block->scratch);
    for (size_t index = 0; index < block->count; index++) {
        size_t slot = index * block->run->source_count + source;
        struct shard_payload *payload = &block->payloads[slot];
        block->vlen[slot] = block->scratch[index];
        *payload = (struct shard_payload){.data = block->scratch[index],
                                          .size = block->sizes[index], .rank = 1,
                                          .shape = {block->sizes[index]}};
    }
    return result;
}

static void block_release(struct shard_block *block)
{
    size_t slots = block->capacity * block->run->source_count;
    for (size_t slot = 0; block->vlen != NULL && slot < slots; slot++) {
        free(block->vlen[slot]);
        block->vlen[slot] = NULL;
    }
}

static int block_read(struct shard_block *block, uint64_t first)
{
    const struct shard_pipeline *pipeline = block->run->pipeline;
    const struct shard_sources *sources = pipeline->sources;
    block_release(block);
    uint64_t left = pipeline->examples - first;
    block->first = first;
    block->count = left < block->capacity ? (size_t)left : block->capacity;
    for (size_t index = 0; index < block->count; index++)
        block->keys[index] = pipeline->order ? (uint64_t)pipeline->order[first + index]
                                             : first + index;
    uint64_t bytes = 0;
    int result = EXIT_OK;
    for (size_t source = 0; result == EXIT_OK && source < sources->count; source++)
        if (stored_source(&sources->items[source]))
            result = stored_read(block, source);
    for (size_t index = 0; result == EXIT_OK && index < block->count; index++) {
        for (size_t source = 0; result == EXIT_OK && source < sources->count; source++)
            if (sources->items[source].present && sources->items[source].source.variable &&
                !stored_source(&sources->items[source]))
                result = vlen_read(block, index, source, &bytes);
        if (bytes >= BLOCK_BYTES)
            block->count = index + 1;
    }
    for (size_t source = 0; result == EXIT_OK && source < sources->count; source++)
        if (sources->items[source].present && !sources->items[source].source.variable)
            result = fixed_read(block, source);
    return result;
}

/* Examples per block: about BLOCK_BYTES of the sources' examples. */
static size_t capacity_choose(const struct shard_sources *sources)
{
    size_t bytes = 0;
    for (size_t source = 0; source < sources->count; source++) {
        const struct example_source *data = &sources->items[source].source;
        bytes += data->variable ? VLEN_GUESS : data->fixed.example_bytes;
    }
    size_t capacity = BLOCK_BYTES / (bytes ? bytes : 1);
    return capacity < 1 ? 1 : capacity > BLOCK_EXAMPLES ? BLOCK_EXAMPLES : capacity;
}

static int block_allocate(struct shard_run *run, struct shard_block *block)
{
    const struct shard_sources *sources = run->pipeline->sources;
    size_t slots = run->capacity * sources->count;
    *block = (struct shard_block){.run = run, .sources = sources, .capacity = run->capacity};
    block->keys = calloc(run->capacity, sizeof *block->keys);
    block->stored = calloc(run->capacity, sizeof *block->stored);
    block->sizes = calloc(run->capacity, sizeof *block->sizes);
    block->scratch = calloc(run->capacity, sizeof *block->scratch);
    block->ends = calloc(run->capacity, sizeof *block->ends);
    block->raw = calloc(sources->count + 1, sizeof *block->raw);
    block->vlen = calloc(slots + 1, sizeof *block->vlen);
    block->payloads = calloc(slots + 1, sizeof *block->payloads);
    block->pngs = calloc(slots + 1, sizeof *block->pngs);
    bool failed = !block->keys || !block->stored || !block->ends || !block->raw || !block->vlen ||
                  !block->payloads || !block->pngs || !block->sizes || !block->scratch;
    for (size_t source = 0; !failed && source < sources->count; source++) {
        const struct example_source *data = &sources->items[source].source;
        if (!data->variable)
            failed = (block->raw[source] = malloc(run->capacity * data->fixed.example_bytes + 1))
                     == NULL;
    }
    return failed ? error_set(EXIT_OTHER, "out of memory for the examples of a block") : EXIT_OK;
}

static void block_free(struct shard_block *block)
{
    if (block->run == NULL)
        return;
    size_t sources = block->run->source_count;
    block_release(block);
    for (size_t slot = 0; block->pngs != NULL && slot < block->capacity * sources; slot++)
        png_bytes_free(&block->pngs[slot]);
    for (size_t source = 0; block->raw != NULL && source < sources; source++)
        free(block->raw[source]);
    if (block->form_state != NULL && block->run->pipeline->coder.state_free != NULL)
        block->run->pipeline->coder.state_free(block->form_state);
    image_free(&block->image);
    void *arrays[] = {block->keys, block->stored, block->sizes, block->scratch, block->ends,
                      block->raw, block->vlen, block->payloads, block->pngs, block->output};
    for (size_t index = 0; index < sizeof arrays / sizeof arrays[0]; index++)
        free(arrays[index]);
}

static int blocks_hand_on(struct shard_run *run, struct ordered_pool *pool, uint64_t *done)
{
    const struct shard_pipeline *pipeline = run->pipeline;
    void *job;
    int result = ordered_pool_collect(pool, &job);
    struct shard_block *block = job;
    for (size_t index = 0; result == EXIT_OK && index < block->count; index++)
        result = pipeline->consume(pipeline->context, block, index);
    *done += block->count;
    if (result == EXIT_OK && pipeline->progress != NULL)
        pipeline->progress(pipeline->context, *done, pipeline->examples);
    return result;
}

static int blocks_stream(struct shard_run *run, struct ordered_pool *pool, size_t depth)
{
    uint64_t read = 0, done = 0;
    size_t submitted = 0;
    int result = EXIT_OK;
    while (result == EXIT_OK && done < run->pipeline->examples) {
        while (result == EXIT_OK && read < run->pipeline->examples && !ordered_pool_full(pool)) {
            struct shard_block *block = &run->blocks[submitted++ % depth];
            result = block_read(block, read);
            if (result == EXIT_OK) {
                read += block->count;
                ordered_pool_submit(pool, block);
            }
        }
        if (result == EXIT_OK)
            result = blocks_hand_on(run, pool, &done);
    }
    return result;
}

int shard_blocks_run(const struct shard_pipeline *pipeline)
{
    struct shard_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    *run = (struct shard_run){.pipeline = pipeline, .source_count = pipeline->sources->count,
                              .capacity = capacity_choose(pipeline->sources),
                              .reader = {.transfer = -1}};
    unsigned threads = pipeline->threads ? pipeline->threads : threads_default();
    threads = threads > SHARD_BLOCKS_DEPTH - 1 ? SHARD_BLOCKS_DEPTH - 1 : threads;
    size_t depth = threads + 1;
    int result = stored_bytes_open(&run->reader);
    for (size_t index = 0; result == EXIT_OK && index < depth; index++)
        result = block_allocate(run, &run->blocks[index]);
    struct ordered_pool *pool = NULL;
    if (result == EXIT_OK)
        result = ordered_pool_create(&pool, threads, depth, block_encode);
    if (result == EXIT_OK)
        result = blocks_stream(run, pool, depth);
    if (pool != NULL)
        ordered_pool_destroy(pool);
    for (size_t index = 0; index < depth; index++)
        block_free(&run->blocks[index]);
    stored_bytes_close(&run->reader);
    free(run);
    return result;
}
