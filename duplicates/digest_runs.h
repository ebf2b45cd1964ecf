/* The digests of more examples than memory holds: sorted runs spilled (sorted_runs.h), then
   merged, keeping only the examples whose digests are equal. */
#ifndef FUEL_DIGEST_RUNS_H
#define FUEL_DIGEST_RUNS_H

#include "example_digests.h"

/* Sorts DIGESTS' records as duplicate_groups_find does and appends them to its runs (begun on
   first use), leaving DIGESTS empty. EXIT_WRITE when the scratch file cannot be made or written. */
int digest_runs_spill(struct example_digests *digests);

/* When DIGESTS spilled runs: spills what it holds too, frees its records, merges the runs through
   buffers of 16 MiB in all, and leaves in DIGESTS only the records of digests met twice or more,
   in order. */
int digest_runs_merge(struct example_digests *digests);

void digest_runs_free(struct sorted_runs *runs);

#endif
