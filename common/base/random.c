/* SplitMix64 (Steele, Lea, Flood): fast, and every seed gives a full-period stream. */
#include "random.h"

void random_seed(struct random_state *state, uint64_t seed, uint64_t stream)
{
    state->state = seed ^ (stream * 0xD1B54A32D192ED03ULL);
    random_next(state);
}

uint64_t random_next(struct random_state *state)
{
    uint64_t value = (state->state += 0x9E3779B97F4A7C15ULL);
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

uint64_t random_below(struct random_state *state, uint64_t bound)
{
    return random_next(state) % bound;
}

double random_between(struct random_state *state, double low, double high)
{
    return low + (high - low) * (double)(random_next(state) >> 11) / 9007199254740992.0;
}
