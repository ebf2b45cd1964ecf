/* Unit tests for duplicates/near_groups.c and perceptual_hash.c: multi-index hashing finds every
   pair within the threshold that brute force finds (random hashes with planted neighbours at
   each distance), joins chains, collapses equal hashes, and leaves the members grouped in order;
   the hash's fixed points (exactly half the bits set, a brightness shift ignored); spilled
   (near_spill.c), the same members in the same order, on any threads and runs of any length;
   the distances of one hash to many equal the distance of each pair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "duplicates/duplicate_groups.h"
#include "duplicates/near_groups.h"
#include "duplicates/near_spill.h"

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
    assert_int_equal(near_groups_gather(&digests, 26, 1, NULL), EXIT_OK);
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
    assert_int_equal(near_groups_gather(&digests, 26, 1, NULL), EXIT_OK);
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
    assert_int_equal(near_groups_gather(digests, 26, threads, NULL), EXIT_OK);
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

/* DIGESTS' records and hashes copied into SPILLED, spilled EVERY at a time, searched through
   runs of LIMIT examples (0: the default) on THREADS threads. */
static void spilled_gather(const struct example_digests *digests, size_t every, size_t limit,
                           unsigned threads, struct example_digests *spilled)
{
    *spilled = (struct example_digests){.records = calloc(every, sizeof *spilled->records),
                                        .hashes = calloc(every, sizeof *spilled->hashes),
                                        .capacity = every, .memory_limit = limit};
    assert_non_null(spilled->records);
    assert_non_null(spilled->hashes);
    for (size_t first = 0; first < digests->count; first += every) {
        size_t count = digests->count - first < every ? digests->count - first : every;
        memcpy(spilled->records, digests->records + first, count * sizeof *spilled->records);
        memcpy(spilled->hashes, digests->hashes + first, count * sizeof *spilled->hashes);
        spilled->count = count;
        spilled->total += count;
        assert_int_equal(near_spill_append(spilled), EXIT_OK);
        assert_int_equal(spilled->count, 0);
    }
    assert_int_equal(near_groups_gather(spilled, 26, threads, NULL), EXIT_OK);
}

/* Random hashes, neighbours at every distance, a chain, copies of one hash and runs of one
   block longer than a chunk: in memory and spilled, the same. */
static void test_spilled_as_in_memory(void **state)
{
    (void)state;
    uint64_t seed = 7;
    struct example_digests source;
    digests_make(&source, 3000);
    for (size_t index = 0; index < 3000; index += 2) {
        for (int word = 0; word < 4; word++)
            source.hashes[index].words[word] = state_next(&seed);
        if (index >= 2000)
            source.hashes[index].words[0] = UINT64_C(0x0123456789abcdef); /* long runs */
        source.hashes[index + 1] = flipped(&source.hashes[index], (unsigned)(index / 2 % 40),
                                           &seed);
    }
    for (size_t index = 1500; index < 1600; index++)
        source.hashes[index] = source.hashes[3]; /* copies */
    source.hashes[1700] = flipped(&source.hashes[3], 20, &seed); /* a chain through them */
    struct example_digests expected = source;
    expected.records = malloc(3000 * sizeof *expected.records);
    expected.hashes = malloc(3000 * sizeof *expected.hashes);
    memcpy(expected.records, source.records, 3000 * sizeof *expected.records);
    memcpy(expected.hashes, source.hashes, 3000 * sizeof *expected.hashes);
    assert_int_equal(near_groups_gather(&expected, 26, 2, NULL), EXIT_OK);
    assert_true(expected.count > 1000);
    const size_t every[] = {7, 1000, 13, 3000}, limits[] = {7, 0, 5, 1};
    const unsigned threads[] = {1, 2, 3, 2};
    for (size_t choice = 0; choice < 4; choice++) {
        struct example_digests spilled;
        spilled_gather(&source, every[choice], limits[choice], threads[choice], &spilled);
        assert_int_equal(spilled.count, expected.count);
        assert_memory_equal(spilled.records, expected.records,
                            expected.count * sizeof *expected.records);
        assert_memory_equal(spilled.hashes, expected.hashes,
                            expected.count * sizeof *expected.hashes);
        example_digests_free(&spilled);
    }
    example_digests_free(&expected);
    example_digests_free(&source);
}

/* One hash against many at a stride: each the pair's distance. */
static void test_distances_of_many(void **state)
{
    (void)state;
    uint64_t seed = 99;
    struct {
        uint64_t padding;
        struct perceptual_hash hash;
    } others[50];
    struct perceptual_hash hash;
    for (int word = 0; word < 4; word++)
        hash.words[word] = state_next(&seed);
    for (unsigned index = 0; index < 50; index++)
        others[index].hash = flipped(&hash, index * 5, &seed);
    unsigned distances[50];
    perceptual_hash_distances(&hash, &others[0].hash, sizeof others[0], 50, distances);
    for (unsigned index = 0; index < 50; index++) {
        assert_int_equal(distances[index], index * 5);
        assert_int_equal(perceptual_hash_distance(&hash, &others[index].hash), index * 5);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair_within_the_threshold),
        cmocka_unit_test(test_chains_and_copies),
        cmocka_unit_test(test_threads_long_runs),
        cmocka_unit_test(test_hash_of_pixels),
        cmocka_unit_test(test_spilled_as_in_memory),
        cmocka_unit_test(test_distances_of_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
