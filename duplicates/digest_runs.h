/* The digests of more examples than memory holds: sorted runs spilled to a scratch file in $TMPDIR
   (else /tmp) that no name points to (spool.h), so that it is gone however fuel ends, then
   merged, keeping only the examples whose digests are equal. */
#ifndef FUEL_DIGEST_RUNS_H
#define FUEL_DIGEST_RUNS_H

#include "example_digests.h"

struct spool;

struct digest_runs {
    struct spool *spool;
    uint64_t *lengths; /* records in each run, in the order written */
    size_t count;
    size_t capacity;
};

/* Sorts DIGESTS' records as duplicate_groups_find does and appends them to its runs (made on
   first use), leaving DIGESTS empty. EXIT_WRITE when the scratch file cannot be made or written. */
int digest_runs_spill(struct example_digests *digests);

/* When DIGESTS spilled runs: spills what it holds too, frees its records, merges the runs through
   buffers of 16 MiB in all, and leaves in DIGESTS only the records of digests met twice or more,
   in order. */
int digest_runs_merge(struct example_digests *digests);

void digest_runs_free(struct digest_runs *runs);

#endif
