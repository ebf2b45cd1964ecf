/* Unit tests of fuel pack's element conversions (packing/element_convert.c): exact integers, floats
   truncated toward zero, refusals where numpy's astype would wrap, the scale, bools, byte swaps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "packing/element_convert.h"

#include <math.h>
#include <string.h>

static bool convert(enum element_type from, enum element_type to, const void *input,
                    void *output, size_t count, size_t *bad, char *text)
{
    struct element_conversion conversion = {from, to, false, 1.0};
    return element_convert(&conversion, input, output, count, bad, text, 64);
}

static void integers(void **state)
{
    (void)state;
    const int64_t wide[4] = {0, 255, -1, 7};
    uint8_t narrow[4];
    size_t bad;
    char text[64];
    assert_false(convert(ELEMENT_INT64, ELEMENT_UINT8, wide, narrow, 4, &bad, text));
    assert_int_equal(bad, 2);
    assert_string_equal(text, "-1");
    assert_true(convert(ELEMENT_INT64, ELEMENT_UINT8, wide, narrow, 2, &bad, text));
    assert_int_equal(narrow[1], 255);
    const uint64_t huge[2] = {UINT64_MAX, 1};
    int64_t signed_values[2];
    assert_false(convert(ELEMENT_UINT64, ELEMENT_INT64, huge, signed_values, 2, &bad, text));
    assert_string_equal(text, "18446744073709551615");
    const int16_t small[3] = {-32768, 32767, -5};
    int32_t widened[3];
    assert_true(convert(ELEMENT_INT16, ELEMENT_INT32, small, widened, 3, &bad, text));
    assert_int_equal(widened[0], -32768);
    assert_int_equal(widened[2], -5);
}

static void floats(void **state)
{
    (void)state;
    const double reals[5] = {2.9, -2.9, 127.99, -129.5, 0.0};
    int8_t bytes[5];
    size_t bad;
    char text[64];
    assert_true(convert(ELEMENT_FLOAT64, ELEMENT_INT8, reals, bytes, 3, &bad, text));
    assert_int_equal(bytes[0], 2);
    assert_int_equal(bytes[1], -2);
    assert_int_equal(bytes[2], 127);
    assert_false(convert(ELEMENT_FLOAT64, ELEMENT_INT8, reals, bytes, 5, &bad, text));
    assert_int_equal(bad, 3);
    assert_string_equal(text, "-129.5");
    const float nan_value[1] = {NAN};
    uint16_t out[1];
    assert_false(convert(ELEMENT_FLOAT32, ELEMENT_UINT16, nan_value, out, 1, &bad, text));
    const double edge[2] = {18446744073709549568.0, 18446744073709551616.0};
    uint64_t naturals[2];
    assert_true(convert(ELEMENT_FLOAT64, ELEMENT_UINT64, edge, naturals, 1, &bad, text));
    assert_false(convert(ELEMENT_FLOAT64, ELEMENT_UINT64, edge, naturals, 2, &bad, text));
    assert_int_equal(bad, 1);
    const int64_t big[1] = {16777217};
    float single[1];
    assert_true(convert(ELEMENT_INT64, ELEMENT_FLOAT32, big, single, 1, &bad, text));
    assert_true(single[0] == 16777216.0f);
}

static void scale_and_bools(void **state)
{
    (void)state;
    const uint8_t pixels[3] = {0, 128, 255};
    float scaled[3];
    size_t bad;
    char text[64];
    struct element_conversion conversion = {ELEMENT_UINT8, ELEMENT_FLOAT32, true, 1.0 / 255};
    assert_true(element_convert(&conversion, pixels, scaled, 3, &bad, text, sizeof text));
    assert_true(scaled[1] == (float)(128 * (1.0 / 255)));
    assert_true(scaled[2] == 1.0f);
    conversion = (struct element_conversion){ELEMENT_INT16, ELEMENT_FLOAT64, true, -0.5};
    const int16_t values[2] = {-4, 3};
    double halves[2];
    assert_true(element_convert(&conversion, values, halves, 2, &bad, text, sizeof text));
    assert_true(halves[0] == 2.0 && halves[1] == -1.5);
    const uint8_t flags[3] = {0, 1, 7};
    uint8_t normal[3];
    conversion = (struct element_conversion){ELEMENT_BOOL, ELEMENT_BOOL, false, 1.0};
    assert_true(element_conversion_needed(&conversion));
    assert_true(element_convert(&conversion, flags, normal, 3, &bad, text, sizeof text));
    assert_int_equal(normal[2], 1);
    const double reals[3] = {0.0, -0.0, NAN};
    conversion = (struct element_conversion){ELEMENT_FLOAT64, ELEMENT_BOOL, false, 1.0};
    assert_true(element_convert(&conversion, reals, normal, 3, &bad, text, sizeof text));
    assert_memory_equal(normal, "\0\0\1", 3);
    conversion = (struct element_conversion){ELEMENT_UINT8, ELEMENT_UINT8, false, 1.0};
    assert_false(element_conversion_needed(&conversion));
}

static void swaps(void **state)
{
    (void)state;
    uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    element_swap(bytes, 4, 2);
    assert_memory_equal(bytes, "\4\3\2\1\10\7\6\5", 8);
    element_swap(bytes, 8, 1);
    assert_memory_equal(bytes, "\5\6\7\10\1\2\3\4", 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers),
        cmocka_unit_test(floats),
        cmocka_unit_test(scale_and_bools),
        cmocka_unit_test(swaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
