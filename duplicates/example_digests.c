/* Digests every example a file's splits select of one source, fixed-shape examples read in blocks
   of 4 MiB, variable-length ones one at a time with their shapes. */
#include "example_digests.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/h5py/h5py_examples.h"
#include "common/h5py/h5py_vlen_examples.h"

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

/* Room for one more record. */
static int records_grow(struct example_digests *digests)
{
    if (digests->count < digests->capacity)
        return EXIT_OK;
    if (digests->count >= EXAMPLE_DIGESTS_MAX)
        return error_set(EXIT_OTHER, "cannot compare more than %llu examples",
                         (unsigned long long)EXAMPLE_DIGESTS_MAX);
    size_t capacity = digests->capacity > 0 ? 2 * digests->capacity : 4096;
    struct example_record *grown = realloc(digests->records, capacity * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    digests->records = grown;
    digests->capacity = capacity;
    return EXIT_OK;
}

/* Records the digest HASH holds for example NUMBER of split SPLIT. */
static int record(struct example_digests *digests, struct hash *hash,
                  const struct digest_request *request, size_t split, uint64_t number)
{
    int result = records_grow(digests);
    if (result != EXIT_OK)
        return result;
    unsigned char digest[HASH_MAX_BYTES];
    hash_take(hash, digest);
    struct example_record *made = &digests->records[digests->count++];
    memcpy(made->digest, digest, sizeof made->digest);
    made->number = (uint32_t)number;
    made->split = (uint16_t)split;
    made->file = request->file_index;
    return EXIT_OK;
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

static int split_digest_fixed(struct example_digests *digests, struct hash *hash,
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
        for (uint64_t index = 0; result == EXIT_OK && index < count; index++) {
            hash_update(hash, reading->buffer + index * reading->examples.example_bytes,
                        reading->examples.example_bytes);
            result = record(digests, hash, request, split, number + index);
        }
        number += count;
        *done += count;
        if (request->listener != NULL)
            request->listener->advance(request->listener->context, *done);
    }
    h5py_selection_free(&selection);
    return result;
}

static int digest_fixed(struct example_digests *digests, struct hash *hash,
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
            result = split_digest_fixed(digests, hash, request, split, &reading, &done);
    free(reading.buffer);
    free(reading.indices);
    h5py_examples_close(&reading.examples);
    return result;
}

/* Example INDEX of a variable-length source: its shape, then its elements, into HASH. */
static int vlen_hash(const struct h5py_vlen_examples *examples, uint64_t index, struct hash *hash)
{
    uint64_t shape[H5PY_VLEN_MAX_RANK] = {0};
    void *data = NULL;
    size_t count = 0;
    int result = h5py_vlen_examples_shape(examples, index, shape);
    if (result == EXIT_OK)
        result = h5py_vlen_examples_read(examples, index, &data, &count);
    if (result == EXIT_OK) {
        hash_update(hash, shape, sizeof shape[0] * (size_t)examples->example_rank);
        hash_update(hash, data, count * examples->element_size);
    }
    free(data);
    return result;
}

static int digest_variable(struct example_digests *digests, struct hash *hash,
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
        result = h5py_selection_find(&selection, request->file, request->splits[split],
                                     request->source);
        for (uint64_t number = 0; result == EXIT_OK && number < selection.count; number++) {
            result = vlen_hash(&examples, h5py_selection_example(&selection, number), hash);
            if (result == EXIT_OK)
                result = record(digests, hash, request, split, number);
            if (request->listener != NULL && ++done % 1024 == 0)
                request->listener->advance(request->listener->context, done);
        }
        h5py_selection_free(&selection);
    }
    h5py_vlen_examples_close(&examples);
    return result;
}

int example_digests_add(struct example_digests *digests, const struct digest_request *request)
{
    const struct h5py_file_source *source = h5py_file_source(request->file, request->source);
    if (source == NULL || !source->present)
        return error_set(EXIT_USAGE, "no source %s: %s", request->source, request->file->path);
    if (digests->count + example_digests_count(request) > EXAMPLE_DIGESTS_MAX)
        return error_set(EXIT_OTHER, "cannot compare more than %llu examples: %s",
                         (unsigned long long)EXAMPLE_DIGESTS_MAX, request->file->path);
    struct hash *hash;
    int result = hash_begin(&hash, HASH_SHA256);
    if (result != EXIT_OK)
        return result;
    if (request->listener != NULL)
        request->listener->stage(request->listener->context, request->file->path,
                                 example_digests_count(request), "examples");
    result = source->variable_length ? digest_variable(digests, hash, request)
                                     : digest_fixed(digests, hash, request);
    hash_discard(hash);
    return result;
}

void example_digests_free(struct example_digests *digests)
{
    free(digests->records);
    *digests = (struct example_digests){0};
}
