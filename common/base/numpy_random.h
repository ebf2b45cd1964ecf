/* numpy's legacy RandomState (MT19937, integer seeds): the same shuffles and permutations. */
#ifndef FUEL_NUMPY_RANDOM_H
#define FUEL_NUMPY_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#define NUMPY_RANDOM_STATE_WORDS 624

struct numpy_random {
    uint32_t key[NUMPY_RANDOM_STATE_WORDS];
    int position;
};

/* numpy.random.RandomState(SEED) for an integer seed (numpy accepts 0 to 2**32 - 1 and uses it
   as MT19937's init_genrand does). */
void numpy_random_seed(struct numpy_random *state, uint32_t seed);

/* The next 32 bits; the next 64 (the first 32 drawn are the high half), as numpy draws them. */
uint32_t numpy_random_next32(struct numpy_random *state);
uint64_t numpy_random_next64(struct numpy_random *state);

/* numpy's random_interval: a number in [0, MAX] by masked rejection, from 32-bit draws when MAX
   fits in 32 bits and 64-bit draws otherwise (what the legacy shuffle and randint use). */
uint64_t numpy_random_interval(struct numpy_random *state, uint64_t max);

/* RandomState.shuffle of COUNT elements of ELEMENT_SIZE bytes at ARRAY (a 1-D array, the rows of
   an n-D one, or a list: numpy draws the same numbers for all three). */
void numpy_shuffle(struct numpy_random *state, void *array, size_t count, size_t element_size);

/* RandomState(SEED).permutation(COUNT) into OUT (COUNT entries). */
void numpy_permutation(uint32_t seed, size_t count, int64_t *out);

#endif
