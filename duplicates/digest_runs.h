/* The digests of more examples than memory holds: sorted runs spilled to a temporary file (deleted
   as it is made), then merged, keeping only the examples whose digests are equal. */
#ifndef FUEL_DIGEST_RUNS_H
#define FUEL_DIGEST_RUNS_H

#include "example_digests.h"

#include <stdio.h>

struct digest_runs {
    FILE *file;
    uint64_t *lengths; /* records in each run, in the order written */
    size_t count;
    size_t capacity;
};

/* Sorts DIGESTS' records as duplicate_groups_find does and appends them to its runs (made on
   first use), leaving DIGESTS empty. EXIT_WRITE when the temporary file cannot be written. */
int digest_runs_spill(struct example_digests *digests);

/* When DIGESTS spilled runs: spills what it holds too, merges the runs, and leaves in DIGESTS only
   the records of digests met twice or more, in order. */
int digest_runs_merge(struct example_digests *digests);

void digest_runs_free(struct digest_runs *runs);

#endif
