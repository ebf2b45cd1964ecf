/* Spills and merges sorted runs of digests (digest_runs.h). Each run is read back through a
   buffer of its own (16 MiB shared between them); the next record is the least of the runs'
   heads, kept at the top of a binary heap of the runs, so that a record costs a logarithm of the
   runs' count, however many were spilled. */
#include "digest_runs.h"

#include "common/base/error.h"
#include "common/formats/spool.h"
#include "duplicate_groups.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { BUFFERS_BYTES = 16 << 20, BUFFERED_LEAST = 64 };

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
}

int digest_runs_spill(struct example_digests *digests)
{
    if (digests->runs == NULL && (digests->runs = calloc(1, sizeof *digests->runs)) == NULL)
        return out_of_memory();
    struct digest_runs *runs = digests->runs;
    int result = runs->spool == NULL ? spool_create(&runs->spool, NULL) : EXIT_OK;
    if (result != EXIT_OK)
        return result;
    if (runs->count == runs->capacity) {
        size_t capacity = runs->capacity > 0 ? 2 * runs->capacity : 16;
        uint64_t *grown = realloc(runs->lengths, capacity * sizeof *grown);
        if (grown == NULL)
            return out_of_memory();
        runs->lengths = grown;
        runs->capacity = capacity;
    }
    qsort(digests->records, digests->count, sizeof *digests->records, example_record_order);
    result = spool_append(runs->spool, digests->records, digests->count * sizeof *digests->records,
                          NULL);
    if (result != EXIT_OK)
        return result;
    runs->lengths[runs->count++] = digests->count;
    digests->count = 0;
    return EXIT_OK;
}

/* One run being read: where it is in the file, what is left, its buffer. */
struct run_reader {
    uint64_t next;      /* byte offset of its next unread record */
    uint64_t left;      /* records not yet read into the buffer */
    struct example_record *buffer;
    size_t size;        /* records the buffer holds */
    size_t held, taken; /* records in the buffer, and those already merged */
};

static int reader_fill(struct spool *spool, struct run_reader *reader)
{
    size_t count = reader->left < reader->size ? (size_t)reader->left : reader->size;
    int result = spool_read(spool, reader->next, reader->buffer, count * sizeof *reader->buffer);
    reader->next += count * sizeof *reader->buffer;
    reader->left -= count;
    reader->held = count;
    reader->taken = 0;
    return result;
}

/* The runs not yet done, the one whose head is least first. */
struct run_heap {
    struct run_reader *readers;
    size_t *runs;
    size_t count;
};

static bool head_before(const struct run_heap *heap, size_t left, size_t right)
{
    const struct run_reader *a = &heap->readers[heap->runs[left]];
    const struct run_reader *b = &heap->readers[heap->runs[right]];
    return example_record_order(&a->buffer[a->taken], &b->buffer[b->taken]) < 0;
}

/* Moves the run at PLACE down until neither of its children's heads is less than its own. */
static void heap_sink(struct run_heap *heap, size_t place)
{
    for (;;) {
        size_t least = place, left = 2 * place + 1, right = left + 1;
        if (left < heap->count && head_before(heap, left, least))
            least = left;
        if (right < heap->count && head_before(heap, right, least))
            least = right;
        if (least == place)
            return;
        size_t run = heap->runs[place];
        heap->runs[place] = heap->runs[least];
        heap->runs[least] = run;
        place = least;
    }
}

/* Takes the least head into *RECORD, refilling or dropping its run. */
static int heap_take(struct run_heap *heap, struct spool *spool, struct example_record *record)
{
    struct run_reader *reader = &heap->readers[heap->runs[0]];
    *record = reader->buffer[reader->taken++];
    int result = EXIT_OK;
    if (reader->taken == reader->held && reader->left > 0)
        result = reader_fill(spool, reader);
    if (reader->taken == reader->held)
        heap->runs[0] = heap->runs[--heap->count];
    if (heap->count > 0)
        heap_sink(heap, 0);
    return result;
}

/* Appends RECORD to DIGESTS' records, which hold only members of groups now. */
static int member_add(struct example_digests *digests, const struct example_record *record)
{
    if (digests->count == digests->capacity) {
        size_t capacity = digests->capacity > 0 ? 2 * digests->capacity : 4096;
        struct example_record *grown = realloc(digests->records, capacity * sizeof *grown);
        if (grown == NULL)
            return out_of_memory();
        digests->records = grown;
        digests->capacity = capacity;
    }
    digests->records[digests->count++] = *record;
    return EXIT_OK;
}

/* Merges the runs, keeping each record whose digest equals its neighbour's. */
static int runs_merge(struct example_digests *digests, struct run_heap *heap)
{
    for (size_t place = heap->count; place-- > 0;)
        heap_sink(heap, place);
    struct example_record previous, record;
    bool have_previous = false, previous_kept = false;
    int result = EXIT_OK;
    while (result == EXIT_OK && heap->count > 0) {
        result = heap_take(heap, digests->runs->spool, &record);
        bool equal = have_previous &&
                     memcmp(record.digest, previous.digest, sizeof record.digest) == 0;
        if (result == EXIT_OK && equal && !previous_kept)
            result = member_add(digests, &previous);
        if (result == EXIT_OK && equal)
            result = member_add(digests, &record);
        previous_kept = equal;
        previous = record;
        have_previous = true;
    }
    return result;
}

/* A reader for each run, its buffer filled; the heap holds those with records. */
static int readers_begin(struct digest_runs *runs, struct run_heap *heap)
{
    size_t size = BUFFERS_BYTES / sizeof(struct example_record) / (runs->count + 1);
    size = size > BUFFERED_LEAST ? size : BUFFERED_LEAST;
    uint64_t offset = 0;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < runs->count; index++) {
        struct run_reader *reader = &heap->readers[index];
        *reader = (struct run_reader){.next = offset, .left = runs->lengths[index],
                                      .buffer = malloc(size * sizeof *reader->buffer),
                                      .size = size};
        offset += runs->lengths[index] * sizeof(struct example_record);
        result = reader->buffer == NULL ? out_of_memory() : reader_fill(runs->spool, reader);
        if (result == EXIT_OK && reader->held > 0)
            heap->runs[heap->count++] = index;
    }
    return result;
}

int digest_runs_merge(struct example_digests *digests)
{
    if (digests->runs == NULL)
        return EXIT_OK;
    int result = digests->count > 0 ? digest_runs_spill(digests) : EXIT_OK;
    free(digests->records);
    digests->records = NULL;
    digests->count = digests->capacity = 0;
    struct digest_runs *runs = digests->runs;
    size_t slots = runs->count > 0 ? runs->count : 1;
    struct run_heap heap = {.readers = calloc(slots, sizeof *heap.readers),
                            .runs = calloc(slots, sizeof *heap.runs)};
    if (result == EXIT_OK && (heap.readers == NULL || heap.runs == NULL))
        result = out_of_memory();
    if (result == EXIT_OK)
        result = readers_begin(runs, &heap);
    if (result == EXIT_OK)
        result = runs_merge(digests, &heap);
    for (size_t index = 0; heap.readers != NULL && index < runs->count; index++)
        free(heap.readers[index].buffer);
    free(heap.readers);
    free(heap.runs);
    return result;
}

void digest_runs_free(struct digest_runs *runs)
{
    if (runs == NULL)
        return;
    if (runs->spool != NULL)
        spool_close(runs->spool);
    free(runs->lengths);
    free(runs);
}
