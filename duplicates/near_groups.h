/* Groups of near-duplicate images from their perceptual hashes, never comparing all pairs:
   multi-index hashing (Norouzi, Punjani and Fleet, "Fast Search in Hamming Space with Multi-Index
   Hashing", 2012). The 256-bit hash is cut into M > THRESHOLD blocks; two hashes within THRESHOLD
   bits agree exactly on some block (pigeonhole), so sorting the examples by each block in turn
   and comparing only the examples of equal blocks finds every pair. Pairs join groups (the
   connected components, by union-find), so a group may hold members further apart than the
   threshold through others between them. */
#ifndef FUEL_NEAR_GROUPS_H
#define FUEL_NEAR_GROUPS_H

#include "example_digests.h"

/* The default threshold, in bits of 256 (see perceptual_hash.c for its measurement). */
#define NEAR_THRESHOLD_DEFAULT 26
#define NEAR_THRESHOLD_MAX 64

/* Replaces DIGESTS (perceptual, in the order they were added) by the members of the groups of
   examples within THRESHOLD bits of one another, each group's records together, groups in the
   order of their first member, each record's digest the group's number: what
   duplicate_groups_find then cuts into groups. The comparisons run on THREADS threads (0: the
   online CPUs), this one among them; the result does not depend on them. DIGESTS that spilled
   are searched through sorted runs instead (near_spill.h), with the same result, telling
   LISTENER (NULL: nobody) of its passes. EXIT_OTHER when out of memory; EXIT_WRITE when a
   spilled search cannot write its runs. */
int near_groups_gather(struct example_digests *digests, unsigned threshold, unsigned threads,
                       const struct stage_listener *listener);

#endif
