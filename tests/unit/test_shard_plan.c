/* Unit tests of exporters/shard_plan.c: shard counts from each option, made a multiple of the
   ranks, the shares of the examples (every example once, counts within one, the ranks' shares
   within one), and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "exporters/shard_plan.h"

#include <string.h>

static uint64_t count_of(struct shard_request request, uint64_t examples, uint64_t bytes)
{
    uint64_t count = 0;
    assert_int_equal(shard_count(&request, "train", examples, bytes, &count), EXIT_OK);
    return count;
}

static void test_counts(void **state)
{
    (void)state;
    uint64_t mib = (uint64_t)1 << 20;
    assert_int_equal(count_of((struct shard_request){0}, 1000, 10 * mib), 1);
    assert_int_equal(count_of((struct shard_request){0}, 1000, 256 * mib + 1), 2);
    assert_int_equal(count_of((struct shard_request){.shard_size = mib}, 1000, 10 * mib), 10);
    assert_int_equal(count_of((struct shard_request){.shard_size = 1}, 1000, 10 * mib), 1000);
    assert_int_equal(count_of((struct shard_request){.shard_size = 1, .ranks = 3}, 1000, mib),
                     999);
    assert_int_equal(count_of((struct shard_request){.shards = 7}, 1000, 0), 7);
    assert_int_equal(count_of((struct shard_request){.shards = 7, .ranks = 4}, 1000, 0), 8);
    assert_int_equal(count_of((struct shard_request){.shard_examples = 100}, 1000, 0), 10);
    assert_int_equal(count_of((struct shard_request){.shard_examples = 99}, 1000, 0), 11);
    assert_int_equal(count_of((struct shard_request){.shard_examples = 99, .ranks = 4}, 1000, 0),
                     12);
    assert_int_equal(count_of((struct shard_request){.ranks = 8}, 1000, 0), 8);
    assert_int_equal(count_of((struct shard_request){.ranks = 1000}, 1000, 0), 1000);
    assert_int_equal(count_of((struct shard_request){0}, 0, 0), 1);
}

static void test_refusals(void **state)
{
    (void)state;
    uint64_t count = 0;
    struct shard_request ranks = {.ranks = 11};
    assert_int_equal(shard_count(&ranks, "valid", 10, 0, &count), EXIT_USAGE);
    assert_string_equal(error_message(), "--ranks 11 is more than the 10 examples of split valid");
    struct shard_request shards = {.shards = 9, .ranks = 2};
    assert_int_equal(shard_count(&shards, "test", 9, 0, &count), EXIT_USAGE);
    assert_string_equal(error_message(),
                        "--shards 10 (a multiple of --ranks) is more than the 9 examples of split test");
    struct shard_request empty = {.shards = 1};
    assert_int_equal(shard_count(&empty, "test", 0, 0, &count), EXIT_USAGE);
    struct shard_request both = {.shards = 2, .shard_examples = 3};
    assert_int_equal(shard_request_check(&both), EXIT_USAGE);
    assert_string_equal(error_message(), "--shards and --shard-examples conflict: give one of "
                                         "--shards, --shard-size and --shard-examples");
    struct shard_request one = {.shard_size = 5, .ranks = 2};
    assert_int_equal(shard_request_check(&one), EXIT_OK);
}

/* Every example in exactly one shard, in order; counts within one, the larger first; with rank r
   reading shards r, r + R, ... the ranks' shares within one. */
static void assert_shares(uint64_t examples, uint64_t count, uint64_t ranks)
{
    uint64_t next = 0, largest = 0, smallest = UINT64_MAX, shares[64] = {0};
    for (uint64_t index = 0; index < count; index++) {
        uint64_t first, size;
        shard_range(examples, count, index, &first, &size);
        assert_int_equal(first, next);
        next += size;
        assert_true(index == 0 || size <= largest);
        largest = size > largest ? size : largest;
        smallest = size < smallest ? size : smallest;
        shares[index % ranks] += size;
    }
    assert_int_equal(next, examples);
    assert_true(largest - smallest <= 1);
    for (uint64_t rank = 1; rank < ranks; rank++)
        assert_true(shares[rank] + 1 >= shares[0] && shares[rank] <= shares[0]);
}

static void test_shares(void **state)
{
    (void)state;
    for (uint64_t ranks = 1; ranks <= 8; ranks++)
        for (uint64_t examples = ranks; examples < 300; examples += 7) {
            struct shard_request request = {.shard_examples = 13, .ranks = ranks};
            uint64_t count = count_of(request, examples, 0);
            assert_int_equal(count % ranks, 0);
            assert_shares(examples, count, ranks);
        }
    uint64_t first, size;
    shard_range(10, 4, 3, &first, &size);
    assert_int_equal(first, 8);
    assert_int_equal(size, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_shares),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
