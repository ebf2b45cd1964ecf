/* Unit tests of batch planning: order, partial last batch, seeded permutations, shares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "serving/batch_plan.h"
#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

/* Every example of the current epoch's share, batch after batch; returns how many. */
static uint64_t epoch_examples(const struct batch_plan *plan, uint64_t *examples)
{
    uint64_t total = 0, numbers[64];
    for (uint64_t batch = 0; batch < batch_plan_batches(plan); batch++) {
        uint64_t count = batch_plan_batch(plan, batch, numbers);
        assert_true(count >= 1 && count <= plan->batch_size);
        memcpy(examples + total, numbers, count * sizeof *numbers);
        total += count;
    }
    assert_int_equal(batch_plan_batch(plan, batch_plan_batches(plan), numbers), 0);
    return total;
}

static void test_in_order_with_a_partial_last_batch(void **state)
{
    (void)state;
    struct batch_plan plan;
    uint64_t numbers[64];
    assert_int_equal(batch_plan_init(&plan, 12, 5, false, 1, 1, 1), EXIT_OK);
    assert_int_equal(batch_plan_batches(&plan), 3);
    assert_int_equal(batch_plan_batch(&plan, 0, numbers), 5);
    assert_int_equal(numbers[0], 0);
    assert_int_equal(numbers[4], 4);
    assert_int_equal(batch_plan_batch(&plan, 2, numbers), 2);
    assert_int_equal(numbers[0], 10);
    assert_int_equal(numbers[1], 11);
}

/* Whether EXAMPLES[0..COUNT) is a permutation of [0, COUNT). */
static int is_permutation(const uint64_t *examples, uint64_t count)
{
    unsigned char *seen = calloc(count, 1);
    int good = 1;
    for (uint64_t index = 0; index < count; index++) {
        good = good && examples[index] < count && !seen[examples[index]];
        if (examples[index] < count)
            seen[examples[index]] = 1;
    }
    free(seen);
    return good;
}

static void test_shuffled_epochs_are_seeded_permutations(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {1, 2, 3, 60, 64, 65, 1000, 50000};
    for (size_t size = 0; size < sizeof sizes / sizeof sizes[0]; size++) {
        uint64_t count = sizes[size];
        uint64_t *first = malloc(count * 8), *second = malloc(count * 8), *again = malloc(count * 8);
        struct batch_plan plan, same;
        assert_int_equal(batch_plan_init(&plan, count, 64, true, 42, 1, 1), EXIT_OK);
        assert_int_equal(batch_plan_init(&same, count, 7, true, 42, 1, 1), EXIT_OK);
        assert_int_equal(epoch_examples(&plan, first), count);
        assert_true(is_permutation(first, count));
        batch_plan_epoch(&plan, 1);
        assert_int_equal(epoch_examples(&plan, second), count);
        assert_true(is_permutation(second, count));
        assert_int_equal(epoch_examples(&same, again), count);
        assert_memory_equal(first, again, count * 8);
        if (count >= 60)
            assert_memory_not_equal(first, second, count * 8);
        free(first);
        free(second);
        free(again);
    }
}

static void test_seeds_differ_and_shuffling_moves_most_examples(void **state)
{
    (void)state;
    uint64_t one[1000], other[1000];
    struct batch_plan plan;
    assert_int_equal(batch_plan_init(&plan, 1000, 64, true, 1, 1, 1), EXIT_OK);
    epoch_examples(&plan, one);
    assert_int_equal(batch_plan_init(&plan, 1000, 64, true, 2, 1, 1), EXIT_OK);
    epoch_examples(&plan, other);
    size_t fixed = 0, same = 0;
    for (size_t index = 0; index < 1000; index++) {
        fixed += one[index] == index;
        same += one[index] == other[index];
    }
    assert_true(fixed < 20);
    assert_true(same < 20);
}

static void test_shares_are_disjoint_and_cover_the_epoch(void **state)
{
    (void)state;
    uint64_t examples[1000];
    unsigned char seen[1000] = {0};
    uint64_t total = 0;
    for (uint64_t part = 1; part <= 3; part++) {
        struct batch_plan plan;
        assert_int_equal(batch_plan_init(&plan, 1000, 64, true, 9, part, 3), EXIT_OK);
        batch_plan_epoch(&plan, 4);
        uint64_t count = epoch_examples(&plan, examples);
        assert_int_equal(count, part == 1 ? 334 : 333);
        for (uint64_t index = 0; index < count; index++) {
            assert_false(seen[examples[index]]);
            seen[examples[index]] = 1;
        }
        total += count;
    }
    assert_int_equal(total, 1000);
}

static void test_bad_shares_are_usage_errors(void **state)
{
    (void)state;
    struct batch_plan plan;
    assert_int_equal(batch_plan_init(&plan, 10, 4, false, 1, 0, 3), EXIT_USAGE);
    assert_int_equal(batch_plan_init(&plan, 10, 4, false, 1, 4, 3), EXIT_USAGE);
    assert_int_equal(batch_plan_init(&plan, 10, 4, false, 1, 1, 0), EXIT_USAGE);
    assert_int_equal(batch_plan_init(&plan, 2, 4, false, 1, 3, 3), EXIT_USAGE);
    assert_int_equal(batch_plan_init(&plan, 10, 0, false, 1, 1, 1), EXIT_USAGE);
    assert_int_equal(batch_plan_init(&plan, 0, 4, false, 1, 1, 1), EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_with_a_partial_last_batch),
        cmocka_unit_test(test_shuffled_epochs_are_seeded_permutations),
        cmocka_unit_test(test_seeds_differ_and_shuffling_moves_most_examples),
        cmocka_unit_test(test_shares_are_disjoint_and_cover_the_epoch),
        cmocka_unit_test(test_bad_shares_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
