/* Unit tests for stats/value_summary.c: exact integer sums, shifted float blocks, NaN and Inf
   apart, merges equal to one pass, and values where naive sums lose every digit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/value_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct numeric_type bytes_type = {'u', 1};
static const struct numeric_type doubles_type = {'f', 8};
static const struct numeric_type shorts_type = {'i', 2};

static void assert_relative(double got, double expected)
{
    assert_true(fabs(got - expected) <= 1e-13 * fabs(expected));
}

static void test_bytes_exact(void **state)
{
    (void)state;
    const uint8_t values[] = {0, 255, 3, 4, 255, 9};
    struct value_summary summary;
    value_summary_begin(&summary, bytes_type);
    assert_true(summary.exact);
    value_summary_add(&summary, values, 6, 1, bytes_type, NULL);
    assert_int_equal(summary.count, 6);
    assert_true(summary.minimum == 0 && summary.maximum == 255);
    double mean = 526.0 / 6, squares = 0;
    for (int index = 0; index < 6; index++)
        squares += (values[index] - mean) * (values[index] - mean);
    assert_relative(value_summary_mean(&summary), mean);
    assert_relative(value_summary_deviation(&summary), sqrt(squares / 6));
}

static void test_strided_signed(void **state)
{
    (void)state;
    const int16_t values[] = {-300, 7, 100, 7, -300, 7};
    struct value_summary summary;
    value_summary_begin(&summary, shorts_type);
    value_summary_add(&summary, values, 3, 2, shorts_type, NULL);
    assert_int_equal(summary.count, 3);
    assert_true(summary.minimum == -300 && summary.maximum == 100);
    assert_relative(value_summary_mean(&summary), -500.0 / 3);
    value_summary_add(&summary, values + 1, 3, 2, shorts_type, NULL);
    assert_true(summary.maximum == 100 && summary.count == 6);
}

static void test_floats_nan_infinity(void **state)
{
    (void)state;
    double values[] = {1.5, NAN, INFINITY, -2.5, -INFINITY, 4.0}, scratch[6];
    struct value_summary summary;
    value_summary_begin(&summary, doubles_type);
    assert_false(summary.exact);
    value_summary_add(&summary, values, 6, 1, doubles_type, scratch);
    assert_int_equal(summary.count, 3);
    assert_int_equal(summary.nan_count, 1);
    assert_int_equal(summary.infinity_count, 2);
    assert_true(summary.minimum == -2.5 && summary.maximum == 4.0);
    assert_relative(value_summary_mean(&summary), 1.0);
    assert_relative(value_summary_deviation(&summary), sqrt((0.25 + 12.25 + 9.0) / 3));
}

static void test_nothing_finite(void **state)
{
    (void)state;
    double values[] = {NAN, NAN}, scratch[2];
    struct value_summary summary;
    value_summary_begin(&summary, doubles_type);
    value_summary_add(&summary, values, 2, 1, doubles_type, scratch);
    assert_int_equal(summary.count, 0);
    assert_true(isnan(value_summary_mean(&summary)) && isnan(value_summary_deviation(&summary)));
}

/* 1e9 + 0, 1, 2, 3 in blocks of one, two and one, merged into a summary begun elsewhere: the
   shift keeps the variance 1.25 exactly, where sums of squares would give nonsense. */
static void test_far_from_zero_merged(void **state)
{
    (void)state;
    double values[] = {1e9, 1e9 + 1, 1e9 + 2, 1e9 + 3}, scratch[4];
    struct value_summary first, second;
    value_summary_begin(&first, doubles_type);
    value_summary_begin(&second, doubles_type);
    value_summary_add(&first, values, 1, 1, doubles_type, scratch);
    value_summary_add(&second, values + 1, 2, 1, doubles_type, scratch);
    value_summary_add(&second, values + 3, 1, 1, doubles_type, scratch);
    value_summary_merge(&first, &second);
    assert_int_equal(first.count, 4);
    assert_true(value_summary_mean(&first) == 1e9 + 1.5);
    assert_true(value_summary_deviation(&first) == sqrt(1.25));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_exact),
        cmocka_unit_test(test_strided_signed),
        cmocka_unit_test(test_floats_nan_infinity),
        cmocka_unit_test(test_nothing_finite),
        cmocka_unit_test(test_far_from_zero_merged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
