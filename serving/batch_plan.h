/* Which examples each batch of an epoch holds: in order or shuffled from a seed and the epoch
   number, and only the K-th of N disjoint shares of each epoch (data-parallel workers). */
#ifndef FUEL_BATCH_PLAN_H
#define FUEL_BATCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>

struct batch_plan {
    uint64_t examples;    /* in the whole split */
    uint64_t batch_size;
    bool shuffle;
    uint64_t seed;
    uint64_t share_first; /* the share's positions in each epoch's order */
    uint64_t share_count;
    /* The current epoch's permutation of [0, examples): a keyed Feistel network on the
       smallest even number of bits covering it, walking cycles back into range. */
    unsigned half_bits;
    uint64_t round_keys[4];
};

/* Plans batches of BATCH_SIZE (>= 1) over EXAMPLES, serving share PART (1-based) of PARTS.
   EXIT_USAGE when PART is not in [1, PARTS] or the share holds no example. */
int batch_plan_init(struct batch_plan *plan, uint64_t examples, uint64_t batch_size, bool shuffle,
                    uint64_t seed, uint64_t part, uint64_t parts);

/* Draws epoch EPOCH's order (the same for the same seed and epoch, whatever the share). */
void batch_plan_epoch(struct batch_plan *plan, uint64_t epoch);

/* Batches per epoch: the share's examples divided by the batch size, rounded up. */
uint64_t batch_plan_batches(const struct batch_plan *plan);

/* Writes the example numbers (in [0, examples)) of batch NUMBER of the current epoch into
   NUMBERS (room for batch_size) and returns how many: batch_size, fewer for the last batch. */
uint64_t batch_plan_batch(const struct batch_plan *plan, uint64_t number, uint64_t *numbers);

#endif
