/* numpy's legacy RandomState (MT19937, integer seeds): the same shuffles and permutations. */
#include "numpy_random.h"

#include <string.h>

/* MT19937's parameters (Matsumoto and Nishimura), as numpy's mt19937.c spells them. */
#define MIDDLE_WORD 397
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu

void numpy_random_seed(struct numpy_random *state, uint32_t seed)
{
    for (int position = 0; position < NUMPY_RANDOM_STATE_WORDS; position++) {
        state->key[position] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)position + 1;
    }
    state->position = NUMPY_RANDOM_STATE_WORDS;
}

static uint32_t twist(uint32_t upper, uint32_t lower, uint32_t far)
{
    uint32_t y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
    return far ^ (y >> 1) ^ ((0u - (y & 1u)) & MATRIX_A);
}

static void generate(struct numpy_random *state)
{
    uint32_t *key = state->key;
    const int words = NUMPY_RANDOM_STATE_WORDS;
    int index = 0;
    for (; index < words - MIDDLE_WORD; index++)
        key[index] = twist(key[index], key[index + 1], key[index + MIDDLE_WORD]);
    for (; index < words - 1; index++)
        key[index] = twist(key[index], key[index + 1], key[index + MIDDLE_WORD - words]);
    key[words - 1] = twist(key[words - 1], key[0], key[MIDDLE_WORD - 1]);
    state->position = 0;
}

uint32_t numpy_random_next32(struct numpy_random *state)
{
    if (state->position == NUMPY_RANDOM_STATE_WORDS)
        generate(state);
    uint32_t y = state->key[state->position++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t numpy_random_next64(struct numpy_random *state)
{
    uint64_t high = numpy_random_next32(state);
    return high << 32 | numpy_random_next32(state);
}

uint64_t numpy_random_interval(struct numpy_random *state, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max;
    for (int shift = 1; shift <= 32; shift *= 2)
        mask |= mask >> shift;
    uint64_t value;
    if (max <= 0xffffffffu)
        while ((value = numpy_random_next32(state) & mask) > max)
            continue;
    else
        while ((value = numpy_random_next64(state) & mask) > max)
            continue;
    return value;
}

static void swap(uint8_t *first, uint8_t *second, size_t size)
{
    uint8_t held[64];
    while (size > 0) {
        size_t part = size < sizeof held ? size : sizeof held;
        memcpy(held, first, part);
        memcpy(first, second, part);
        memcpy(second, held, part);
        first += part, second += part, size -= part;
    }
}

void numpy_shuffle(struct numpy_random *state, void *array, size_t count, size_t element_size)
{
    uint8_t *bytes = array;
    for (size_t index = count > 0 ? count - 1 : 0; index >= 1; index--) {
        size_t other = (size_t)numpy_random_interval(state, index);
        if (other != index)
            swap(bytes + index * element_size, bytes + other * element_size, element_size);
    }
}

void numpy_permutation(uint32_t seed, size_t count, int64_t *out)
{
    struct numpy_random state;
    numpy_random_seed(&state, seed);
    for (size_t index = 0; index < count; index++)
        out[index] = (int64_t)index;
    numpy_shuffle(&state, out, count, sizeof *out);
}
