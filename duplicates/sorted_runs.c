/* Spills and merges sorted runs (sorted_runs.h). Each run is read back through a buffer of its
   own; the next entry is the least of the runs' heads, kept at the top of a binary heap of the
   runs, so that an entry costs a logarithm of the runs' count, however many were spilled. */
#include "sorted_runs.h"

#include "common/base/error.h"
#include "common/formats/spool.h"

#include <stdlib.h>
#include <string.h>

enum { BUFFERED_LEAST = 64 };

/* One run being read: where it is in the file, what is left, its buffer. */
struct run_reader {
    uint64_t next;      /* byte offset of its next unread entry */
    uint64_t left;      /* entries not yet read into the buffer */
    unsigned char *buffer;
    size_t size;        /* entries the buffer holds */
    size_t held, taken; /* entries in the buffer, and those already merged */
};

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
}

void sorted_runs_begin(struct sorted_runs *runs, size_t size, entry_order order)
{
    *runs = (struct sorted_runs){.entry_size = size, .order = order};
}

int sorted_runs_spill(struct sorted_runs *runs, void *entries, size_t count)
{
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
    qsort(entries, count, runs->entry_size, runs->order);
    result = spool_append(runs->spool, entries, count * runs->entry_size, NULL);
    if (result == EXIT_OK)
        runs->lengths[runs->count++] = count;
    return result;
}

static int reader_fill(struct sorted_runs *runs, struct run_reader *reader)
{
    size_t count = reader->left < reader->size ? (size_t)reader->left : reader->size;
    int result = spool_read(runs->spool, reader->next, reader->buffer, count * runs->entry_size);
    reader->next += count * runs->entry_size;
    reader->left -= count;
    reader->held = count;
    reader->taken = 0;
    return result;
}

static const void *head_of(const struct sorted_runs *runs, size_t place)
{
    const struct run_reader *reader = &runs->readers[runs->heap[place]];
    return reader->buffer + reader->taken * runs->entry_size;
}

/* Moves the run at PLACE down until neither of its children's heads is less than its own. */
static void heap_sink(struct sorted_runs *runs, size_t place)
{
    for (;;) {
        size_t least = place, left = 2 * place + 1, right = left + 1;
        if (left < runs->heap_count && runs->order(head_of(runs, left), head_of(runs, least)) < 0)
            least = left;
        if (right < runs->heap_count &&
            runs->order(head_of(runs, right), head_of(runs, least)) < 0)
            least = right;
        if (least == place)
            return;
        size_t run = runs->heap[place];
        runs->heap[place] = runs->heap[least];
        runs->heap[least] = run;
        place = least;
    }
}

static void readers_free(struct sorted_runs *runs)
{
    for (size_t index = 0; index < runs->reader_count; index++)
        free(runs->readers[index].buffer);
    free(runs->readers);
    free(runs->heap);
    runs->readers = NULL;
    runs->heap = NULL;
    runs->heap_count = runs->reader_count = 0;
}

int sorted_runs_merge(struct sorted_runs *runs, size_t buffer_bytes)
{
    readers_free(runs);
    size_t slots = runs->count > 0 ? runs->count : 1;
    runs->readers = calloc(slots, sizeof *runs->readers);
    runs->heap = calloc(slots, sizeof *runs->heap);
    if (runs->readers == NULL || runs->heap == NULL)
        return out_of_memory();
    runs->reader_count = runs->count;
    size_t size = buffer_bytes / runs->entry_size / slots;
    size = size > BUFFERED_LEAST ? size : BUFFERED_LEAST;
    uint64_t offset = 0;
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < runs->count; index++) {
        struct run_reader *reader = &runs->readers[index];
        *reader = (struct run_reader){.next = offset, .left = runs->lengths[index],
                                      .buffer = malloc(size * runs->entry_size), .size = size};
        offset += runs->lengths[index] * runs->entry_size;
        result = reader->buffer == NULL ? out_of_memory() : reader_fill(runs, reader);
        if (result == EXIT_OK && reader->held > 0)
            runs->heap[runs->heap_count++] = index;
    }
    for (size_t place = runs->heap_count; result == EXIT_OK && place-- > 0;)
        heap_sink(runs, place);
    return result;
}

int sorted_runs_next(struct sorted_runs *runs, void *entry, bool *taken)
{
    *taken = runs->heap_count > 0;
    if (!*taken)
        return EXIT_OK;
    struct run_reader *reader = &runs->readers[runs->heap[0]];
    memcpy(entry, reader->buffer + reader->taken++ * runs->entry_size, runs->entry_size);
    int result = EXIT_OK;
    if (reader->taken == reader->held && reader->left > 0)
        result = reader_fill(runs, reader);
    if (reader->taken == reader->held)
        runs->heap[0] = runs->heap[--runs->heap_count];
    if (runs->heap_count > 0)
        heap_sink(runs, 0);
    return result;
}

int sorted_runs_reset(struct sorted_runs *runs)
{
    readers_free(runs);
    runs->count = 0;
    return runs->spool != NULL ? spool_reset(runs->spool) : EXIT_OK;
}

void sorted_runs_free(struct sorted_runs *runs)
{
    readers_free(runs);
    if (runs->spool != NULL)
        spool_close(runs->spool);
    free(runs->lengths);
    *runs = (struct sorted_runs){0};
}
