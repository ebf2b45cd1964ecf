/* What the two near searches share (in memory, near_groups.c; spilled, near_spill.c): the
   hash's blocks of multi-index hashing, and the groups' union-find, a group's root its least
   member. Inline: both searches call them once per example and comparison. */
#ifndef FUEL_NEAR_BLOCKS_H
#define FUEL_NEAR_BLOCKS_H

#include "perceptual_hash.h"

#include <stdint.h>

/* The blocks a hash is cut into for THRESHOLD: more than the threshold, at least 8 (so that a
   block holds at most 32 bits). */
static inline unsigned near_block_count(unsigned threshold)
{
    return threshold + 1 > 8 ? threshold + 1 : 8;
}

/* The first bit of block BLOCK of COUNT, and the bits it holds. */
static inline void near_block_bounds(unsigned block, unsigned count, unsigned *first_bit,
                                     unsigned *bits)
{
    *first_bit = block * PERCEPTUAL_HASH_BITS / count;
    *bits = (block + 1) * PERCEPTUAL_HASH_BITS / count - *first_bit;
}

/* Bits [FIRST, FIRST + COUNT) of HASH, COUNT at most 32. */
static inline uint32_t near_block_value(const struct perceptual_hash *hash, unsigned first,
                                        unsigned count)
{
    unsigned word = first / 64, shift = first % 64;
    uint64_t value = hash->words[word] >> shift;
    if (shift + count > 64 && word + 1 < PERCEPTUAL_HASH_BITS / 64)
        value |= hash->words[word + 1] << (64 - shift);
    return (uint32_t)(value & ((UINT64_C(1) << count) - 1));
}

static inline uint32_t near_root(uint32_t *parents, uint32_t member)
{
    while (parents[member] != member) {
        parents[member] = parents[parents[member]];
        member = parents[member];
    }
    return member;
}

/* Joins the groups of A and B under the smaller root: a group's root is its first member, and
   every parent is an earlier example than its child. */
static inline void near_join(uint32_t *parents, uint32_t a, uint32_t b)
{
    uint32_t root_a = near_root(parents, a), root_b = near_root(parents, b);
    if (root_a < root_b)
        parents[root_b] = root_a;
    else if (root_b < root_a)
        parents[root_a] = root_b;
}

/* Joins in PARENTS every union OTHERS (another thread's parents of the same COUNT examples)
   holds. */
static inline void near_unions_merge(uint32_t *parents, const uint32_t *others, uint64_t count)
{
    for (uint64_t index = 0; index < count; index++)
        if (others[index] != index)
            near_join(parents, (uint32_t)index, others[index]);
}

#endif
