/* A small deterministic random number generator (SplitMix64): the same seed, the same numbers. */
#ifndef FUEL_RANDOM_H
#define FUEL_RANDOM_H

#include <stdint.h>

struct random_state {
    uint64_t state;
};

/* Seeds STATE from SEED and a STREAM number (one per file, so files do not depend on each other). */
void random_seed(struct random_state *state, uint64_t seed, uint64_t stream);

uint64_t random_next(struct random_state *state);

/* A whole number in [0, BOUND) (BOUND > 0). */
uint64_t random_below(struct random_state *state, uint64_t bound);

/* A number in [LOW, HIGH). */
double random_between(struct random_state *state, double low, double high);

#endif
