/* Unit tests for stats/byte_sums.c: every vector path gives the plain loop's sums, minimum and
   maximum at every length and alignment, and stays exact past its 32-bit runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/byte_sums.h"

#include <stdlib.h>

static const enum byte_sums_path paths[] = {BYTE_SUMS_SSE2, BYTE_SUMS_AVX2};

static void assert_same(const struct byte_sums *got, const struct byte_sums *expected)
{
    assert_int_equal(got->sum, expected->sum);
    assert_int_equal(got->square_sum, expected->square_sum);
    assert_int_equal(got->minimum, expected->minimum);
    assert_int_equal(got->maximum, expected->maximum);
}

static void test_lengths_and_alignments(void **state)
{
    (void)state;
    uint8_t bytes[320];
    uint32_t seed = 2026;
    for (size_t index = 0; index < sizeof bytes; index++) {
        seed = seed * 1103515245u + 12345u;
        bytes[index] = (uint8_t)(seed >> 16);
    }
    bytes[150] = 0;
    bytes[200] = 255;
    for (size_t path = 0; path < sizeof paths / sizeof *paths; path++) {
        if (!byte_sums_path_available(paths[path]))
            continue;
        for (size_t offset = 0; offset < 32; offset++)
            for (size_t count = 0; count + offset <= 288; count += 7) {
                struct byte_sums plain, vector;
                byte_sums_begin(&plain);
                byte_sums_begin(&vector);
                byte_sums_add_on(&plain, bytes + offset, count, BYTE_SUMS_PLAIN);
                byte_sums_add_on(&vector, bytes + offset, count, paths[path]);
                assert_same(&vector, &plain);
            }
    }
}

/* 2^25 + 37 bytes of 255: many runs of 32-bit square sums, each filled to its limit. */
static void test_largest_values_exact(void **state)
{
    (void)state;
    size_t count = ((size_t)1 << 25) + 37;
    uint8_t *bytes = malloc(count);
    assert_non_null(bytes);
    for (size_t index = 0; index < count; index++)
        bytes[index] = 255;
    bytes[count / 2] = 7;
    struct byte_sums expected = {.sum = 255 * (uint64_t)(count - 1) + 7,
                                 .square_sum = 65025 * (uint64_t)(count - 1) + 49,
                                 .minimum = 7, .maximum = 255};
    for (size_t path = 0; path < sizeof paths / sizeof *paths; path++) {
        if (!byte_sums_path_available(paths[path]))
            continue;
        struct byte_sums sums;
        byte_sums_begin(&sums);
        byte_sums_add_on(&sums, bytes, count, paths[path]);
        assert_same(&sums, &expected);
    }
    struct byte_sums chosen;
    byte_sums_begin(&chosen);
    byte_sums_add(&chosen, bytes, count);
    assert_same(&chosen, &expected);
    free(bytes);
}

static void test_nothing_added(void **state)
{
    (void)state;
    struct byte_sums sums;
    byte_sums_begin(&sums);
    byte_sums_add(&sums, NULL, 0);
    assert_true(sums.sum == 0 && sums.square_sum == 0 && sums.minimum == 255 && sums.maximum == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths_and_alignments),
        cmocka_unit_test(test_largest_values_exact),
        cmocka_unit_test(test_nothing_added),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
