/* Entries of a fixed size, more than memory holds: sorted runs spilled to a scratch file in $TMPDIR
   (else /tmp) that no name points to (spool.h), so that it is gone however fuel ends, then read
   back merged into one order through buffers of a bounded size. */
#ifndef FUEL_SORTED_RUNS_H
#define FUEL_SORTED_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spool;
struct run_reader;

/* The order of two entries, as qsort takes it. */
typedef int (*entry_order)(const void *left, const void *right);

struct sorted_runs {
    size_t entry_size;
    entry_order order;
    struct spool *spool;   /* made on the first run spilled */
    uint64_t *lengths;     /* entries in each run, in the order written */
    size_t count;
    size_t capacity;
    struct run_reader *readers; /* while merging: one a run */
    size_t reader_count;
    size_t *heap;          /* the runs not yet done, the one whose head is least first */
    size_t heap_count;
};

/* Runs of entries of SIZE bytes in ORDER, none spilled yet. */
void sorted_runs_begin(struct sorted_runs *runs, size_t size, entry_order order);

/* Sorts the COUNT entries at ENTRIES and appends them as one run. EXIT_WRITE when the scratch file
   cannot be made or written; EXIT_OTHER when out of memory. */
int sorted_runs_spill(struct sorted_runs *runs, void *entries, size_t count);

/* Begins reading the runs merged, through buffers of BUFFER_BYTES in all (at least 64 entries a
   run). */
int sorted_runs_merge(struct sorted_runs *runs, size_t buffer_bytes);

/* Copies the least entry not yet taken to ENTRY; *TAKEN false when none is left. */
int sorted_runs_next(struct sorted_runs *runs, void *entry, bool *taken);

/* Forgets every run, keeping the scratch file for the next (its pages dropped, never written). */
int sorted_runs_reset(struct sorted_runs *runs);

void sorted_runs_free(struct sorted_runs *runs);

#endif
