/* Unit tests for duplicates/near_groups.c and perceptual_hash.c: multi-index hashing finds every
   pair within the threshold that brute force finds (random hashes with planted neighbours at
   each distance), joins chains, collapses equal hashes, and leaves the members grouped in order;
   the hash's fixed points (exactly half the bits set, a brightness shift ignored). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "duplicates/duplicate_groups.h"
#include "duplicates/near_groups.h"

#include <stdlib.h>
#include <string.h>

static uint64_t state_next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void digests_make(struct example_digests *digests, size_t count)
{
    *digests = (struct example_digests){.records = calloc(count, sizeof *digests->records),
                                        .hashes = calloc(count, sizeof *digests->hashes),
                                        .count = count, .capacity = count};
    assert_non_null(digests->records);
    assert_non_null(digests->hashes);
    for (size_t index = 0; index < count; index++)
        digests->records[index].number = (uint32_t)index;
}

/* HASH with its first COUNT bits of a random permutation flipped. */
static struct perceptual_hash flipped(const struct perceptual_hash *hash, unsigned count,
                                      uint64_t *state)
{
    unsigned bits[PERCEPTUAL_HASH_BITS];
    for (unsigned bit = 0; bit < PERCEPTUAL_HASH_BITS; bit++)
        bits[bit] = bit;
    struct perceptual_hash made = *hash;
    for (unsigned index = 0; index < count; index++) {
        unsigned other = index + (unsigned)(state_next(state) % (PERCEPTUAL_HASH_BITS - index));
        unsigned bit = bits[other];
        bits[other] = bits[index];
        made.words[bit / 64] ^= UINT64_C(1) << (bit % 64);
    }
    return made;
}

/* 400 random hashes, example 2k + 1 a copy of example 2k with k % 40 bits flipped: the pairs
   within the threshold, and only those, are groups of two (random hashes are ~128 apart). */
static void test_every_pair_within_the_threshold(void **state)
{
    (void)state;
    uint64_t seed = 88172645463325252u;
    struct example_digests digests;
    digests_make(&digests, 400);
    for (size_t index = 0; index < 400; index += 2) {
        for (int word = 0; word < 4; word++)
            digests.hashes[index].words[word] = state_next(&seed);
        digests.hashes[index + 1] = flipped(&digests.hashes[index], (unsigned)(index / 2 % 40),
                                            &seed);
        assert_int_equal(perceptual_hash_distance(&digests.hashes[index],
                                                  &digests.hashes[index + 1]),
                         index / 2 % 40);
    }
    assert_int_equal(near_groups_gather(&digests, 26, 1), EXIT_OK);
    size_t expected = 0;
    for (size_t pair = 0; pair < 200; pair++)
        expected += pair % 40 <= 26 ? 2 : 0;
    assert_int_equal(digests.count, expected);
    for (size_t index = 0; index < digests.count; index += 2) {
        /* in order of their first members, each group's records together, the digest its number */
        assert_int_equal(digests.records[index + 1].number, digests.records[index].number + 1);
        assert_true(digests.records[index].number / 2 % 40 <= 26);
        assert_memory_equal(digests.records[index].digest, digests.records[index + 1].digest,
                            EXAMPLE_DIGEST_BYTES);
        assert_true(index == 0 || digests.records[index].number > digests.records[index - 1].number);
    }
    struct duplicate_groups groups;
    assert_int_equal(duplicate_groups_find(&digests, &groups), EXIT_OK);
    assert_int_equal(groups.group_count, expected / 2);
    duplicate_groups_free(&groups);
    example_digests_free(&digests);
}

/* A chain 0 - 1 - 2, each step 20 bits and the ends 40 apart, is one group; copies of one hash
   (a thousand blank images) are one group; a hash alone stays out. */
static void test_chains_and_copies(void **state)
{
    (void)state;
    struct example_digests digests;
    digests_make(&digests, 1004);
    for (int word = 0; word < 4; word++)
        digests.hashes[0].words[word] = UINT64_C(0x0123456789abcdef) * (uint64_t)(word + 1);
    digests.hashes[1] = digests.hashes[0];
    digests.hashes[1].words[0] ^= UINT64_C(0xfffff);
    digests.hashes[2] = digests.hashes[1];
    digests.hashes[2].words[1] ^= UINT64_C(0xfffff);
    for (int word = 0; word < 4; word++)
        digests.hashes[3].words[word] = ~digests.hashes[0].words[word];
    for (size_t index = 4; index < 1004; index++)
        digests.hashes[index].words[2] = UINT64_C(0xffffffff); /* equal to one another */
    assert_int_equal(near_groups_gather(&digests, 26, 1), EXIT_OK);
    assert_int_equal(digests.count, 3 + 1000);
    for (size_t index = 0; index < 3; index++)
        assert_int_equal(digests.records[index].number, index);
    struct duplicate_groups groups;
    assert_int_equal(duplicate_groups_find(&digests, &groups), EXIT_OK);
    assert_int_equal(groups.group_count, 2);
    assert_int_equal(groups.groups[0].count, 3);
    assert_int_equal(groups.groups[1].count, 1000);
    duplicate_groups_free(&groups);
    example_digests_free(&digests);
}

/* A picture of random 5-pixel tiles: its hash has half its bits set; two levels brighter, the
   same hash; its mirror image, a hash far away. */
static void test_hash_of_pixels(void **state)
{
    (void)state;
    enum { HEIGHT = 60, WIDTH = 80 };
    static uint8_t image[HEIGHT][WIDTH], brighter[HEIGHT][WIDTH], mirrored[HEIGHT][WIDTH];
    uint64_t seed = 2463534242u, tiles[HEIGHT / 5][WIDTH / 5];
    for (int y = 0; y < HEIGHT / 5; y++)
        for (int x = 0; x < WIDTH / 5; x++)
            tiles[y][x] = state_next(&seed) % 200;
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            image[y][x] = (uint8_t)(20 + tiles[y / 5][x / 5]);
            brighter[y][x] = (uint8_t)(image[y][x] + 2);
        }
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++)
            mirrored[y][x] = image[y][WIDTH - 1 - x];
    struct perceptual_hash first, second, third, empty = {{0}};
    assert_int_equal(perceptual_hash_pixels(&image[0][0], 1, HEIGHT, WIDTH, 0, &first), EXIT_OK);
    assert_int_equal(perceptual_hash_pixels(&brighter[0][0], 1, HEIGHT, WIDTH, 0, &second),
                     EXIT_OK);
    assert_int_equal(perceptual_hash_pixels(&mirrored[0][0], 1, HEIGHT, WIDTH, 0, &third),
                     EXIT_OK);
    assert_int_equal(perceptual_hash_distance(&first, &empty), PERCEPTUAL_HASH_BITS / 2);
    assert_int_equal(perceptual_hash_distance(&first, &second), 0);
    assert_true(perceptual_hash_distance(&first, &third) > 64);
}

/* 5,000 hashes with equal first words (64 bits, the first 6 of 27 blocks), random elsewhere (~96
   bits apart), 2k + 1 a copy of 2k with the last bit of each other block flipped (21 bits): each
   pair shares only the first 6 blocks, whose runs of 5,000 equal keys are longer than a thread's
   slice of keys. Every pair is found, by 1, 3 and 8 threads alike. */
static void pairs_in_long_runs(struct example_digests *digests, unsigned threads)
{
    uint64_t seed = 2026;
    digests_make(digests, 5000);
    for (size_t index = 0; index < 5000; index += 2) {
        struct perceptual_hash *hash = &digests->hashes[index];
        hash->words[0] = UINT64_C(0x0123456789abcdef);
        for (int word = 1; word < 4; word++)
            hash->words[word] = state_next(&seed);
        digests->hashes[index + 1] = *hash;
        for (unsigned block = 6; block < 27; block++) {
            unsigned bit = (block + 1) * PERCEPTUAL_HASH_BITS / 27 - 1;
            digests->hashes[index + 1].words[bit / 64] ^= UINT64_C(1) << (bit % 64);
        }
    }
    assert_int_equal(near_groups_gather(digests, 26, threads), EXIT_OK);
}

static void test_threads_long_runs(void **state)
{
    (void)state;
    struct example_digests expected;
    pairs_in_long_runs(&expected, 1);
    assert_int_equal(expected.count, 5000);
    for (size_t index = 0; index < 5000; index++)
        assert_int_equal(expected.records[index].number, index);
    const unsigned threads[] = {3, 8};
    for (size_t choice = 0; choice < 2; choice++) {
        struct example_digests digests;
        pairs_in_long_runs(&digests, threads[choice]);
        assert_int_equal(digests.count, expected.count);
        assert_memory_equal(digests.records, expected.records,
                            expected.count * sizeof *expected.records);
        example_digests_free(&digests);
    }
    struct duplicate_groups groups;
    assert_int_equal(duplicate_groups_find(&expected, &groups), EXIT_OK);
    assert_int_equal(groups.group_count, 2500);
    duplicate_groups_free(&groups);
    example_digests_free(&expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair_within_the_threshold),
        cmocka_unit_test(test_chains_and_copies),
        cmocka_unit_test(test_threads_long_runs),
        cmocka_unit_test(test_hash_of_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
