/* Unit tests of the fixtures' random numbers: reproducible, streams apart, bounds kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/random.h"

static void test_same_seed_same_numbers(void **state)
{
    (void)state;
    struct random_state first, second, other_stream, other_seed;
    random_seed(&first, 42, 0);
    random_seed(&second, 42, 0);
    random_seed(&other_stream, 42, 1);
    random_seed(&other_seed, 43, 0);
    int stream_differs = 0, seed_differs = 0;
    for (int index = 0; index < 100; index++) {
        uint64_t value = random_next(&first);
        assert_true(value == random_next(&second));
        stream_differs += value != random_next(&other_stream);
        seed_differs += value != random_next(&other_seed);
    }
    assert_int_equal(stream_differs, 100);
    assert_int_equal(seed_differs, 100);
}

/* SplitMix64's published first output for state 0 after one increment (Vigna's reference). */
static void test_known_value(void **state)
{
    (void)state;
    struct random_state random = {0};
    assert_true(random_next(&random) == 0xE220A8397B1DCDAFULL);
}

static void test_bounds(void **state)
{
    (void)state;
    struct random_state random;
    random_seed(&random, 7, 3);
    int seen[10] = {0};
    for (int index = 0; index < 10000; index++) {
        uint64_t value = random_below(&random, 10);
        assert_true(value < 10);
        seen[value]++;
        double number = random_between(&random, -1.5, 2.5);
        assert_true(number >= -1.5 && number < 2.5);
    }
    for (int value = 0; value < 10; value++)
        assert_true(seen[value] > 800 && seen[value] < 1200);
    assert_true(random_below(&random, 1) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_numbers),
        cmocka_unit_test(test_known_value),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
