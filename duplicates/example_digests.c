/* Digests every example a file's splits select of one source, fixed-shape examples read in blocks
   of 4 MiB, variable-length ones one at a time with their shapes: by SHA-256, or as images by
   their perceptual hash. */
#include "example_digests.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/h5py/h5py_examples.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "digest_runs.h"
#include "hash_workers.h"
#include "near_spill.h"

#include <stdio.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK_BYTES = 4 << 20 };

/* Whether SPLIT's row for SOURCE exists and is available. */
static bool split_holds(const struct h5py_file *file, const char *split, const char *source)
{
    for (size_t index = 0; index < file->row_count; index++)
        if (strcmp(file->rows[index].split, split) == 0 &&
            strcmp(file->rows[index].source, source) == 0)
            return file->rows[index].available;
    return false;
}

uint64_t example_digests_count(const struct digest_request *request)
{
    uint64_t total = 0;
    for (size_t split = 0; split < request->split_count; split++)
        for (size_t index = 0; index < request->file->row_count; index++) {
            const struct h5py_split_row *row = &request->file->rows[index];
            if (strcmp(row->split, request->splits[split]) == 0 &&
                strcmp(row->source, request->source) == 0)
                total += h5py_split_row_count(row);
        }
    return total;
}

/* What digests one file's examples: the SHA-256 streamed, or the images' layout and the
   workers hashing them. */
struct digesting {
    struct hash *hash;
    struct image_layout layout;
    struct hash_workers *workers;
    struct example_digests *digests;
    const struct digest_request *request;
};

/* Room for one more record. */
static int records_grow(struct example_digests *digests)
{
    if (digests->count < digests->capacity)
        return EXIT_OK;
    size_t limit = digests->memory_limit > 0    ? digests->memory_limit
                   : digests->hashes != NULL ? EXAMPLE_DIGESTS_NEAR_IN_MEMORY
                                             : EXAMPLE_DIGESTS_IN_MEMORY;
    if (digests->count >= limit)
        return digests->hashes == NULL ? digest_runs_spill(digests) : near_spill_append(digests);
    size_t capacity = digests->capacity > 0 ? 2 * digests->capacity : 4096;
    if (capacity > limit)
        capacity = limit;
    struct example_record *grown = realloc(digests->records, capacity * sizeof *grown);
    if (grown != NULL)
        digests->records = grown;
    if (grown != NULL && digests->hashes != NULL) {
        struct perceptual_hash *hashes = realloc(digests->hashes, capacity * sizeof *hashes);
        if (hashes == NULL)
            grown = NULL;
        else
            digests->hashes = hashes;
    }
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    digests->capacity = capacity;
    return EXIT_OK;
}

/* Records example NUMBER of split SPLIT: PERCEPTUAL, or else the digest HASH holds. */
static int record(struct example_digests *digests, struct hash *hash,
                  const struct perceptual_hash *perceptual, const struct digest_request *request,
                  size_t split, uint64_t number)
{
    int result = records_grow(digests);
    if (result != EXIT_OK)
        return result;
    struct example_record *made = &digests->records[digests->count];
    memset(made->digest, 0, sizeof made->digest);
    if (perceptual != NULL) {
        digests->hashes[digests->count] = *perceptual;
    } else {
        unsigned char digest[HASH_MAX_BYTES];
        hash_take(hash, digest);
        memcpy(made->digest, digest, sizeof made->digest);
    }
    digests->count++;
    digests->total++;
    made->number = (uint32_t)number;
    made->split = (uint16_t)split;
    made->file = request->file_index;
    return EXIT_OK;
}

static int hash_receive(void *context, const struct example_place *place,
                        const struct perceptual_hash *hash)
{
    struct digesting *digesting = context;
    return record(digesting->digests, NULL, hash, digesting->request, place->split,
                  place->number);
}

/* Hands example NUMBER of split SPLIT, stored at INDEX, to the hashing workers. */
static int hash_hand_over(struct digesting *digesting, const void *data, size_t size, bool owned,
                          const uint64_t *shape, size_t split, uint64_t number, uint64_t index)
{
    struct example_place place = {.path = digesting->request->file->path,
                                  .source = digesting->request->source, .index = index,
                                  .split = split, .number = number};
    return hash_workers_add(digesting->workers, data, size, owned, shape, &place);
}

/* RESULT, a failure on the reading thread, unless an example handed over before failed: the
   first failure in the examples' order is the one reported, whatever the thread count. */
static int hashing_stop(struct digesting *digesting, int result)
{
    if (digesting->workers == NULL || result == EXIT_OK)
        return result;
    char message[1024];
    snprintf(message, sizeof message, "%s", error_message());
    int earlier = hash_workers_finish(digesting->workers);
    return earlier != EXIT_OK ? earlier : error_set(result, "%s", message);
}

/* The examples [NUMBER, NUMBER + COUNT) of SELECTION into BUFFER, in selection order. */
static int block_read(const struct h5py_examples *examples, const struct h5py_selection *selection,
                      uint64_t number, uint64_t count, uint64_t *indices, void *buffer)
{
    if (selection->indices == NULL)
        return h5py_examples_read(examples, selection->start + number, count, buffer);
    memcpy(indices, selection->indices + number, count * sizeof *indices);
    return h5py_examples_read_indices(examples, indices, (size_t)count, buffer);
}

struct fixed_reading {
    struct h5py_examples examples;
    unsigned char *buffer;
    uint64_t *indices;
    uint64_t block; /* examples a block holds */
};

/* Records one fixed-shape example, the EXAMPLE_BYTES at BYTES. */
static int fixed_record(struct example_digests *digests, struct digesting *digesting,
                        const struct digest_request *request, const struct fixed_reading *reading,
                        const unsigned char *bytes, size_t split, uint64_t number)
{
    if (!request->perceptual) {
        hash_update(digesting->hash, bytes, reading->examples.example_bytes);
        return record(digests, digesting->hash, NULL, request, split, number);
    }
    return hash_hand_over(digesting, bytes, reading->examples.example_bytes, false,
                          reading->examples.shape + 1, split, number, number);
}

static int split_digest_fixed(struct example_digests *digests, struct digesting *digesting,
                              const struct digest_request *request, size_t split,
                              struct fixed_reading *reading, uint64_t *done)
{
    struct h5py_selection selection;
    int result = h5py_selection_find(&selection, request->file, request->splits[split],
                                     request->source);
    for (uint64_t number = 0; result == EXIT_OK && number < selection.count;) {
        uint64_t count = selection.count - number < reading->block ? selection.count - number
                                                                    : reading->block;
        result = block_read(&reading->examples, &selection, number, count, reading->indices,
                            reading->buffer);
        for (uint64_t index = 0; result == EXIT_OK && index < count; index++)
            result = fixed_record(digests, digesting, request, reading,
                                  reading->buffer + index * reading->examples.example_bytes,
                                  split, number + index);
        if (result == EXIT_OK && digesting->workers != NULL)
            result = hash_workers_finish(digesting->workers); /* the buffer is read again */
        number += count;
        *done += count;
        if (request->listener != NULL)
            request->listener->advance(request->listener->context, *done);
    }
    h5py_selection_free(&selection);
    return hashing_stop(digesting, result); /* no worker still reads the buffer once freed */
}

static int digest_fixed(struct example_digests *digests, struct digesting *digesting,
                        const struct digest_request *request)
{
    struct fixed_reading reading = {0};
    int result = h5py_examples_open_strings(&reading.examples, request->file, request->source);
    if (result != EXIT_OK)
        return result;
    size_t bytes = reading.examples.example_bytes > 0 ? reading.examples.example_bytes : 1;
    reading.block = bytes < BLOCK_BYTES ? BLOCK_BYTES / bytes : 1;
    reading.buffer = malloc(reading.block * bytes);
    reading.indices = malloc(reading.block * sizeof *reading.indices);
    if (reading.buffer == NULL || reading.indices == NULL)
        result = error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    uint64_t done = 0;
    for (size_t split = 0; result == EXIT_OK && split < request->split_count; split++)
        if (split_holds(request->file, request->splits[split], request->source))
            result = split_digest_fixed(digests, digesting, request, split, &reading, &done);
    free(reading.buffer);
    free(reading.indices);
    h5py_examples_close(&reading.examples);
    return result;
}

/* Hands a variable-length example to the hashing workers: COUNT bytes at DATA (malloc'd, theirs
   from now on) of shape SHAPE, stored at INDEX. */
static int vlen_hand_over(struct digesting *digesting, const uint64_t *shape, void *data,
                          size_t count, uint64_t index, size_t split, uint64_t number)
{
    uint64_t elements = 1;
    for (int axis = 0; !digesting->layout.encoded && axis < digesting->layout.example_rank; axis++)
        elements *= shape[axis];
    if (!digesting->layout.encoded && elements != count) {
        free(data);
        return hashing_stop(digesting,
                            error_set(EXIT_CORRUPT_INPUT, "example %llu of %s holds %zu values, "
                                      "not its shape's %llu: %s", (unsigned long long)index,
                                      digesting->request->source, count,
                                      (unsigned long long)elements,
                                      digesting->request->file->path));
    }
    return hash_hand_over(digesting, data, count, true, shape, split, number, index);
}

/* Records example NUMBER of split SPLIT, stored at INDEX of a variable-length source: by its
   shape, then its elements, or by its perceptual hash. */
static int vlen_record(struct example_digests *digests, struct digesting *digesting,
                       const struct digest_request *request,
                       const struct h5py_vlen_examples *examples, uint64_t index, size_t split,
                       uint64_t number)
{
    uint64_t shape[H5PY_VLEN_MAX_RANK] = {0};
    void *data = NULL;
    size_t count = 0;
    int result = h5py_vlen_examples_shape(examples, index, shape);
    if (result == EXIT_OK)
        result = h5py_vlen_examples_read(examples, index, &data, &count);
    if (request->perceptual)
        return result == EXIT_OK
                   ? vlen_hand_over(digesting, shape, data, count, index, split, number)
                   : hashing_stop(digesting, result);
    if (result == EXIT_OK) {
        hash_update(digesting->hash, shape, sizeof shape[0] * (size_t)examples->example_rank);
        hash_update(digesting->hash, data, count * examples->element_size);
    }
    free(data);
    if (result == EXIT_OK)
        result = record(digests, digesting->hash, NULL, request, split, number);
    return result;
}

static int digest_variable(struct example_digests *digests, struct digesting *digesting,
                           const struct digest_request *request)
{
    struct h5py_vlen_examples examples;
    int result = h5py_vlen_examples_open(&examples, request->file, request->source);
    if (result != EXIT_OK)
        return result;
    uint64_t done = 0;
    for (size_t split = 0; result == EXIT_OK && split < request->split_count; split++) {
        if (!split_holds(request->file, request->splits[split], request->source))
            continue;
        struct h5py_selection selection;
        result = hashing_stop(digesting, h5py_selection_find(&selection, request->file,
                                                             request->splits[split],
                                                             request->source));
        for (uint64_t number = 0; result == EXIT_OK && number < selection.count; number++) {
            result = vlen_record(digests, digesting, request, &examples,
                                 h5py_selection_example(&selection, number), split, number);
            if (request->listener != NULL && ++done % 1024 == 0)
                request->listener->advance(request->listener->context, done);
        }
        h5py_selection_free(&selection);
    }
    if (result == EXIT_OK && digesting->workers != NULL)
        result = hash_workers_finish(digesting->workers);
    h5py_vlen_examples_close(&examples);
    return result;
}

static uint64_t examples_most(const struct digest_request *request)
{
    return request->perceptual ? EXAMPLE_DIGESTS_MAX : EXAMPLE_DIGESTS_SPILLED_MAX;
}

static int too_many(const struct digest_request *request)
{
    return error_set(EXIT_OTHER, "cannot compare more than %llu examples%s: %s",
                     (unsigned long long)examples_most(request),
                     request->perceptual ? " with --near (a parent of 4 bytes is held in memory for each)" : "",
                     request->file->path);
}

int example_digests_bound(const struct digest_request *requests, size_t count)
{
    uint64_t total = 0;
    for (size_t index = 0; index < count; index++) {
        total += example_digests_count(&requests[index]);
        if (total > examples_most(&requests[index]))
            return too_many(&requests[index]);
    }
    return EXIT_OK;
}

/* The SHA-256 begun, or the images' layout found, room for their hashes and the workers
   started. */
static int digesting_begin(struct digesting *digesting, const struct h5py_file_source *source)
{
    const struct digest_request *request = digesting->request;
    struct example_digests *digests = digesting->digests;
    if (!request->perceptual)
        return hash_begin(&digesting->hash, HASH_SHA256);
    int result = image_layout_find(request->file, source, &digesting->layout);
    if (result == EXIT_OK && digests->hashes == NULL &&
        (digests->hashes = malloc((digests->capacity > 0 ? digests->capacity : 1) *
                                  sizeof *digests->hashes)) == NULL)
        result = error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    struct hash_receiver receiver = {.receive = hash_receive, .context = digesting};
    if (result == EXIT_OK)
        result = hash_workers_begin(&digesting->workers, &digesting->layout, request->threads,
                                    &receiver);
    return result;
}

int example_digests_add(struct example_digests *digests, const struct digest_request *request)
{
    const struct h5py_file_source *source = h5py_file_source(request->file, request->source);
    if (source == NULL || !source->present)
        return error_set(EXIT_USAGE, "no source %s: %s", request->source, request->file->path);
    if (digests->total + example_digests_count(request) > examples_most(request))
        return too_many(request);
    struct digesting digesting = {.digests = digests, .request = request};
    int result = digesting_begin(&digesting, source);
    if (result == EXIT_OK && request->listener != NULL)
        request->listener->stage(request->listener->context, request->file->path,
                                 example_digests_count(request), "examples");
    if (result == EXIT_OK)
        result = source->variable_length ? digest_variable(digests, &digesting, request)
                                         : digest_fixed(digests, &digesting, request);
    if (digesting.hash != NULL)
        hash_discard(digesting.hash);
    hash_workers_free(digesting.workers);
    return result;
}

void example_digests_free(struct example_digests *digests)
{
    free(digests->records);
    free(digests->hashes);
    digest_runs_free(digests->runs);
    near_spill_free(digests->spill);
    *digests = (struct example_digests){0};
}
