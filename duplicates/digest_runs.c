/* Spills and merges sorted runs of digests (digest_runs.h). Each run is read back through a
   buffer of its own (16 MiB shared between them); the next record is the least of the runs'
   heads, found by a scan (runs are few: one per memory limit's worth of examples). */
#include "digest_runs.h"

#include "common/base/error.h"
#include "duplicate_groups.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { BUFFERS_BYTES = 16 << 20, BUFFERED_LEAST = 64 };

static int spill_failure(void)
{
    return error_set(EXIT_WRITE, "cannot spill digests to a temporary file: %s",
                     strerror(errno != 0 ? errno : EIO));
}

int digest_runs_spill(struct example_digests *digests)
{
    if (digests->runs == NULL && (digests->runs = calloc(1, sizeof *digests->runs)) == NULL)
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    struct digest_runs *runs = digests->runs;
    if (runs->file == NULL && (runs->file = tmpfile()) == NULL)
        return spill_failure();
    if (runs->count == runs->capacity) {
        size_t capacity = runs->capacity > 0 ? 2 * runs->capacity : 16;
        uint64_t *grown = realloc(runs->lengths, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
        runs->lengths = grown;
        runs->capacity = capacity;
    }
    qsort(digests->records, digests->count, sizeof *digests->records, example_record_order);
    errno = 0;
    if (fwrite(digests->records, sizeof *digests->records, digests->count, runs->file) !=
        digests->count)
        return spill_failure();
    runs->lengths[runs->count++] = digests->count;
    digests->count = 0;
    return EXIT_OK;
}

/* One run being read: where it is in the file, what is left, its buffer. */
struct run_reader {
    off_t next;         /* byte offset of its next unread record */
    uint64_t left;      /* records not yet read into the buffer */
    struct example_record *buffer;
    size_t size;        /* records the buffer holds */
    size_t held, taken; /* records in the buffer, and those already merged */
};

static int reader_fill(FILE *file, struct run_reader *reader)
{
    size_t count = reader->left < reader->size ? (size_t)reader->left : reader->size;
    errno = 0;
    if (fseeko(file, reader->next, SEEK_SET) != 0 ||
        fread(reader->buffer, sizeof reader->buffer[0], count, file) != count)
        return error_set(EXIT_OTHER, "cannot read spilled digests back: %s",
                         errno != 0 ? strerror(errno) : "the file is shorter");
    reader->next += (off_t)(count * sizeof reader->buffer[0]);
    reader->left -= count;
    reader->held = count;
    reader->taken = 0;
    return EXIT_OK;
}

/* The run whose head is least, or -1 when all are done. */
static long least_run(struct run_reader *readers, size_t count)
{
    long least = -1;
    for (size_t index = 0; index < count; index++) {
        const struct run_reader *reader = &readers[index];
        if (reader->taken == reader->held)
            continue;
        if (least < 0 || example_record_order(&reader->buffer[reader->taken],
                                              &readers[least].buffer[readers[least].taken]) < 0)
            least = (long)index;
    }
    return least;
}

/* Appends RECORD to DIGESTS' records, which hold only members of groups now. */
static int member_add(struct example_digests *digests, const struct example_record *record)
{
    if (digests->count == digests->capacity) {
        size_t capacity = digests->capacity > 0 ? 2 * digests->capacity : 4096;
        struct example_record *grown = realloc(digests->records, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
        digests->records = grown;
        digests->capacity = capacity;
    }
    digests->records[digests->count++] = *record;
    return EXIT_OK;
}

/* Merges the runs, keeping each record whose digest equals its neighbour's. */
static int runs_merge(struct example_digests *digests, struct run_reader *readers)
{
    struct digest_runs *runs = digests->runs;
    struct example_record previous;
    bool have_previous = false, previous_kept = false;
    int result = EXIT_OK;
    for (long run; result == EXIT_OK && (run = least_run(readers, runs->count)) >= 0;) {
        struct run_reader *reader = &readers[run];
        struct example_record record = reader->buffer[reader->taken++];
        if (reader->taken == reader->held && reader->left > 0)
            result = reader_fill(runs->file, reader);
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

int digest_runs_merge(struct example_digests *digests)
{
    if (digests->runs == NULL)
        return EXIT_OK;
    int result = digests->count > 0 ? digest_runs_spill(digests) : EXIT_OK;
    struct digest_runs *runs = digests->runs;
    struct run_reader *readers = calloc(runs->count > 0 ? runs->count : 1, sizeof *readers);
    if (result == EXIT_OK && readers == NULL)
        result = error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    size_t size = BUFFERS_BYTES / sizeof(struct example_record) / (runs->count + 1);
    size = size > BUFFERED_LEAST ? size : BUFFERED_LEAST;
    off_t offset = 0;
    for (size_t index = 0; result == EXIT_OK && index < runs->count; index++) {
        readers[index] = (struct run_reader){.next = offset, .left = runs->lengths[index],
                                             .buffer = malloc(size * sizeof *readers->buffer),
                                             .size = size};
        offset += (off_t)(runs->lengths[index] * sizeof(struct example_record));
        result = readers[index].buffer == NULL
                     ? error_set(EXIT_OTHER, "cannot compare examples: out of memory")
                     : reader_fill(runs->file, &readers[index]);
    }
    digests->count = 0;
    if (result == EXIT_OK)
        result = runs_merge(digests, readers);
    for (size_t index = 0; readers != NULL && index < runs->count; index++)
        free(readers[index].buffer);
    free(readers);
    return result;
}

void digest_runs_free(struct digest_runs *runs)
{
    if (runs == NULL)
        return;
    if (runs->file != NULL)
        fclose(runs->file);
    free(runs->lengths);
    free(runs);
}
