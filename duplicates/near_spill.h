/* fuel duplicates --near beyond the examples held in memory: each example's record and hash
   spilled in order to scratch files in $TMPDIR (else /tmp) that no name points to, then the
   multi-index search of near_groups.h done through sorted runs (sorted_runs.h), holding only a
   parent (4 bytes) and a bit per example in memory. */
#ifndef FUEL_NEAR_SPILL_H
#define FUEL_NEAR_SPILL_H

#include "example_digests.h"

/* Appends DIGESTS' records and hashes to its spill (made on first use), leaving it empty.
   EXIT_WRITE when a scratch file cannot be made or written. */
int near_spill_append(struct example_digests *digests);

/* What near_groups_gather does, for DIGESTS that spilled: spills what it holds too, then leaves
   in DIGESTS only the members of groups, in the same order with the same digests. The blocks are
   searched on THREADS threads (0: the online CPUs), this one among them, 10 MiB of buffers and a
   parent per example each; the result does not depend on them. LISTENER (NULL: nobody) is told
   of the passes done, on this thread. */
int near_spill_gather(struct example_digests *digests, unsigned threshold, unsigned threads,
                      const struct stage_listener *listener);

void near_spill_free(struct near_spill *spill);

#endif
