/* Reads one source's examples of a batch: a range when contiguous, else sorted runs of indices. */
#include "source_batch.h"

#include "common/base/error.h"
#include "common/h5py/h5py_elements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the whole source into memory when it fits BUDGET: then no batch reads the file. */
static int resident_load(struct source_batch *source, size_t *budget)
{
    uint64_t examples = source->examples.shape[0];
    size_t bytes = source->examples.example_bytes;
    if (bytes == 0 || examples > *budget / bytes)
        return EXIT_OK;
    source->resident = malloc(examples * bytes > 0 ? examples * bytes : 1);
    if (source->resident == NULL)
        return EXIT_OK;
    int result = h5py_examples_read(&source->examples, 0, examples, source->resident);
    if (result != EXIT_OK) {
        free(source->resident);
        source->resident = NULL;
        return result;
    }
    *budget -= examples * bytes;
    return EXIT_OK;
}

int source_batch_open(struct source_batch *source, const struct h5py_file *file,
                      const char *split, const char *name, bool to_float32, double scale,
                      size_t *resident_budget)
{
    *source = (struct source_batch){.to_float32 = to_float32, .scale = scale};
    int result = h5py_examples_open(&source->examples, file, name);
    if (result != EXIT_OK)
        return result;
    result = h5py_selection_find(&source->selection, file, split, name);
    if (result != EXIT_OK) {
        h5py_examples_close(&source->examples);
        return result;
    }
    result = resident_load(source, resident_budget);
    if (result != EXIT_OK) {
        source_batch_close(source);
        return result;
    }
    source->is_direct = source->resident == NULL &&
                        h5py_direct_open(&source->direct, &source->examples, file->path);
    source->example_bytes = source->examples.example_bytes;
    memcpy(source->descr, source->examples.descr, sizeof source->descr);
    if (to_float32) {
        source->example_bytes = source->example_bytes / source->examples.element_size * 4;
        snprintf(source->descr, sizeof source->descr, "<f4");
    }
    return EXIT_OK;
}

void source_batch_close(struct source_batch *source)
{
    if (source->is_direct)
        h5py_direct_close(&source->direct);
    h5py_examples_close(&source->examples);
    h5py_selection_free(&source->selection);
    free(source->resident);
    source->resident = NULL;
    free(source->indices);
    source->indices = NULL;
    free(source->stored);
    source->stored = NULL;
    buffer_pool_release(source->pool);
    source->pool = NULL;
}

int source_batch_keep(struct source_batch *source, uint64_t batch_size, size_t capacity)
{
    source->pool = buffer_pool_create(batch_size * source->example_bytes, capacity);
    if (source->pool == NULL)
        return error_set(EXIT_OTHER, "cannot keep batch arrays: out of memory");
    return EXIT_OK;
}

void source_batch_shape(const struct source_batch *source, uint64_t count, uint64_t *shape)
{
    shape[0] = count;
    for (int axis = 1; axis < source->examples.rank; axis++)
        shape[axis] = source->examples.shape[axis];
}

/* The scratch BUFFER of *ROOM bytes, grown to hold BYTES; NULL (BUFFER freed) when out of
   memory. */
static void *room_ensure(void *buffer, size_t *room, size_t bytes)
{
    if (*room >= bytes && buffer != NULL)
        return buffer;
    free(buffer);
    buffer = malloc(bytes > 0 ? bytes : 1);
    *room = buffer != NULL ? bytes : 0;
    return buffer;
}

static int resident_copy(const struct source_batch *source, const uint64_t *indices,
                         uint64_t count, unsigned char *stored)
{
    size_t bytes = source->examples.example_bytes;
    for (uint64_t number = 0; number < count; number++)
        memcpy(stored + number * bytes, source->resident + indices[number] * bytes, bytes);
    return EXIT_OK;
}

/* Reads the examples as stored into the new *STORED. */
static int stored_read(struct source_batch *source, const uint64_t *numbers, uint64_t count,
                       bool consecutive, unsigned char *stored)
{
    const struct h5py_selection *selection = &source->selection;
    if (consecutive && selection->indices == NULL && source->resident == NULL)
        return source->is_direct
                   ? h5py_direct_read(&source->direct, selection->start + numbers[0], count, stored)
                   : h5py_examples_read(&source->examples, selection->start + numbers[0], count,
                                        stored);
    source->indices = room_ensure(source->indices, &source->indices_room,
                                  count * sizeof *source->indices);
    if (source->indices == NULL)
        return error_set(EXIT_OTHER, "cannot read a batch: out of memory");
    for (uint64_t number = 0; number < count; number++)
        source->indices[number] = h5py_selection_example(selection, numbers[number]);
    if (source->resident != NULL)
        return resident_copy(source, source->indices, count, stored);
    if (source->is_direct)
        return h5py_direct_read_indices(&source->direct, source->indices, count, stored);
    return h5py_examples_read_indices(&source->examples, source->indices, count, stored);
}

/* The array a batch of SIZE bytes is sent in: the pool's for a full batch, else a new one. */
static void *array_take(struct source_batch *source, size_t size, struct buffer_pool **pool)
{
    *pool = source->pool != NULL && size == buffer_pool_size(source->pool) ? source->pool : NULL;
    return *pool != NULL ? buffer_pool_take(*pool) : malloc(size > 0 ? size : 1);
}

int source_batch_read(struct source_batch *source, const uint64_t *numbers, uint64_t count,
                      bool consecutive, void **array, size_t *size, struct buffer_pool **pool)
{
    size_t stored_size = count * source->examples.example_bytes;
    size_t sent_size = count * source->example_bytes;
    unsigned char *sent = array_take(source, sent_size, pool);
    if (source->to_float32)
        source->stored = room_ensure(source->stored, &source->stored_room, stored_size);
    unsigned char *stored = source->to_float32 ? source->stored : sent;
    *array = NULL;
    *size = 0;
    int result = sent != NULL && stored != NULL
                     ? stored_read(source, numbers, count, consecutive, stored)
                     : error_set(EXIT_OTHER, "cannot read a batch: out of memory");
    if (result != EXIT_OK) {
        buffer_pool_give(*pool, sent);
        return result;
    }
    struct numeric_type type = {source->examples.descr[1], source->examples.element_size};
    if (source->to_float32)
        elements_to_float(stored, type, stored_size / type.size, source->scale, false, sent);
    *array = sent;
    *size = sent_size;
    return EXIT_OK;
}
