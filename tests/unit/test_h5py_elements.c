/* Unit tests of element values: numpy dtype strings, one value as a double, arrays to floats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/h5py/h5py_elements.h"

#include <string.h>

static void test_types_from_descr(void **state)
{
    (void)state;
    struct numeric_type type = numeric_type_from_descr("|u1");
    assert_int_equal(type.kind, 'u');
    assert_int_equal(type.size, 1);
    type = numeric_type_from_descr("<f8");
    assert_int_equal(type.kind, 'f');
    assert_int_equal(type.size, 8);
    type = numeric_type_from_descr("|b1");
    assert_int_equal(type.kind, 'b');
    assert_int_equal(type.size, 1);
}

static void test_values_of_each_type(void **state)
{
    (void)state;
    int16_t shorts[2] = {-300, 7};
    uint32_t words[2] = {5, 4000000000u};
    int64_t longs[1] = {-5};
    float singles[1] = {0.25f};
    double doubles[1] = {-1.5};
    unsigned char bools[3] = {0, 1, 2};
    assert_true(element_value(shorts, 0, (struct numeric_type){'i', 2}) == -300.0);
    assert_true(element_value(words, 1, (struct numeric_type){'u', 4}) == 4000000000.0);
    assert_true(element_value(longs, 0, (struct numeric_type){'i', 8}) == -5.0);
    assert_true(element_value(singles, 0, (struct numeric_type){'f', 4}) == 0.25);
    assert_true(element_value(doubles, 0, (struct numeric_type){'f', 8}) == -1.5);
    assert_true(element_value(bools, 2, (struct numeric_type){'b', 1}) == 1.0);
}

/* Each stored type to float32, scaled, from an address one byte past alignment. */
static void test_arrays_to_float32_scaled(void **state)
{
    (void)state;
    unsigned char storage[1 + 4 * sizeof(int64_t)];
    int16_t shorts[4] = {-2, 0, 2, 300};
    memcpy(storage + 1, shorts, sizeof shorts);
    float out[4];
    elements_to_float(storage + 1, (struct numeric_type){'i', 2}, 4, 0.5, false, out);
    assert_true(out[0] == -1.0f && out[1] == 0.0f && out[2] == 1.0f && out[3] == 150.0f);
    uint8_t bytes[4] = {0, 51, 255, 1};
    elements_to_float(bytes, (struct numeric_type){'u', 1}, 4, 1 / 255.0, false, out);
    assert_true(out[0] == 0.0f && out[1] == (float)(51 / 255.0) && out[2] == 1.0f);
    uint64_t large[2] = {UINT64_C(1) << 40, 3};
    memcpy(storage + 1, large, sizeof large);
    elements_to_float(storage + 1, (struct numeric_type){'u', 8}, 2, 1.0, false, out);
    assert_true(out[0] == 1099511627776.0f && out[1] == 3.0f);
    double doubles[2] = {0.1, -2.0};
    elements_to_float(doubles, (struct numeric_type){'f', 8}, 2, 10.0, false, out);
    assert_true(out[0] == 1.0f && out[1] == -20.0f);
}

/* Float64 keeps what float32 would round; bools are 0 or 1 whatever byte holds them. */
static void test_float64_and_bools(void **state)
{
    (void)state;
    uint32_t words[1] = {16777217u}; /* 2^24 + 1: no float32 holds it */
    double twice[3];
    elements_to_float(words, (struct numeric_type){'u', 4}, 1, 1.0, true, twice);
    assert_true(twice[0] == 16777217.0);
    float single[3];
    elements_to_float(words, (struct numeric_type){'u', 4}, 1, 1.0, false, single);
    assert_true(single[0] == 16777216.0f);
    unsigned char bools[3] = {0, 1, 7};
    elements_to_float(bools, (struct numeric_type){'b', 1}, 3, 2.0, true, twice);
    assert_true(twice[0] == 0.0 && twice[1] == 2.0 && twice[2] == 2.0);
    elements_to_float(bools, (struct numeric_type){'b', 1}, 3, 1.0, false, single);
    assert_true(single[0] == 0.0f && single[1] == 1.0f && single[2] == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_from_descr),
        cmocka_unit_test(test_values_of_each_type),
        cmocka_unit_test(test_arrays_to_float32_scaled),
        cmocka_unit_test(test_float64_and_bools),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
