/* Unit tests for common/base/numpy_random.c: the numbers, shuffles and permutations numpy makes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/numpy_random.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs numpy with SEED bound to `seed` and N to `n`, and returns the SIZE bytes EXPRESSION makes
   (a bytes value); fails the test unless it prints exactly that many. */
static uint8_t *numpy_bytes(uint32_t seed, size_t n, const char *expression, size_t size)
{
    char command[2048];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import sys, numpy\n"
             "seed, n = %" PRIu32 ", %zu\n"
             "rs = numpy.random.RandomState(seed)\n"
             "sys.stdout.buffer.write(%s)\"",
             seed, n, expression);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    uint8_t *bytes = malloc(size + 1);
    assert_non_null(bytes);
    size_t read = 0, count;
    while ((count = fread(bytes + read, 1, size + 1 - read, pipe)) > 0)
        read += count;
    assert_int_equal(pclose(pipe), 0);
    assert_int_equal(read, size);
    return bytes;
}

static uint64_t word(const uint8_t *bytes, size_t index)
{
    uint64_t value;
    memcpy(&value, bytes + index * 8, 8);
    return value;
}

static void first_numbers_are_mt19937s(void **state)
{
    (void)state;
    struct numpy_random random;
    numpy_random_seed(&random, 5489);
    /* the reference implementation's first output for init_genrand(5489) */
    assert_int_equal(numpy_random_next32(&random), 3499211612u);
    const uint32_t seeds[] = {0, 1, 123522, 4294967295u};
    uint8_t *expected = numpy_bytes(0, 2000,
                                    "b''.join(numpy.random.RandomState(s).randint(0, 2**32, n, "
                                    "'<u8').tobytes() for s in (0, 1, 123522, 4294967295))",
                                    4 * 2000 * 8);
    for (size_t index = 0; index < 4; index++) {
        numpy_random_seed(&random, seeds[index]);
        for (size_t draw = 0; draw < 2000; draw++)
            assert_int_equal(numpy_random_next32(&random), word(expected, index * 2000 + draw));
    }
    free(expected);
}

/* Legacy randint draws by the same masked rejection as random_interval, with 32- or 64-bit
   draws by the range, so its numbers are random_interval's. */
static void intervals_are_numpys_for_32_and_64_bit_ranges(void **state)
{
    (void)state;
    const uint64_t maxima[] = {0, 1, 6, 1000, 0xffffffffu, UINT64_C(0x100000000),
                               UINT64_C(0x10000003039), UINT64_C(0x8000000000000005),
                               UINT64_MAX};
    size_t count = sizeof maxima / sizeof *maxima;
    uint8_t *expected = numpy_bytes(77, 500,
                                    "b''.join(numpy.random.RandomState(seed).randint(0, m + 1, n, "
                                    "'<u8').tobytes() for m in (0, 1, 6, 1000, 2**32 - 1, 2**32, "
                                    "2**40 + 12345, 2**63 + 5, 2**64 - 1))",
                                    count * 500 * 8);
    for (size_t index = 0; index < count; index++) {
        struct numpy_random random;
        numpy_random_seed(&random, 77);
        for (size_t draw = 0; draw < 500; draw++)
            assert_int_equal(numpy_random_interval(&random, maxima[index]),
                             word(expected, index * 500 + draw));
    }
    free(expected);
}

static void assert_permutation_is(uint32_t seed, size_t count, const uint8_t *expected)
{
    int64_t *permutation = malloc(sizeof *permutation * count + 1);
    assert_non_null(permutation);
    numpy_permutation(seed, count, permutation);
    if (count > 0 && memcmp(permutation, expected, count * 8) != 0)
        fail_msg("RandomState(%" PRIu32 ").permutation(%zu) differs from numpy's", seed, count);
    free(permutation);
}

/* 123522: Fuel's Dogs vs Cats seed; 1: Fuel's config.default_seed, ILSVRC's shuffle seed. */
static void permutations_are_numpys(void **state)
{
    (void)state;
    const uint32_t seeds[] = {0, 1, 123522, 4294967295u};
    const size_t counts[] = {0, 1, 2, 3, 25000};
    uint8_t *expected = numpy_bytes(0, 0,
                                    "b''.join(numpy.random.RandomState(s).permutation(c).astype("
                                    "'<i8').tobytes() for s in (0, 1, 123522, 4294967295) "
                                    "for c in (0, 1, 2, 3, 25000))",
                                    4 * 25006 * 8);
    const uint8_t *next = expected;
    for (size_t seed = 0; seed < 4; seed++)
        for (size_t count = 0; count < 5; count++) {
            assert_permutation_is(seeds[seed], counts[count], next);
            next += counts[count] * 8;
        }
    free(expected);
    int64_t one;
    numpy_permutation(9, 1, &one);
    assert_int_equal(one, 0);
}

/* ILSVRC2012's training set: 1,281,167 images, permuted with Fuel's default seed 1, and 0. */
static void imagenet_sized_permutations_are_numpys(void **state)
{
    (void)state;
    for (uint32_t seed = 0; seed < 2; seed++) {
        uint8_t *expected = numpy_bytes(seed, 1281167,
                                        "rs.permutation(n).astype('<i8').tobytes()",
                                        1281167 * 8);
        assert_permutation_is(seed, 1281167, expected);
        free(expected);
    }
}

/* Rows of 12 bytes (a 2-D array), and a Python list (Fuel's Dogs vs Cats shuffles its list of
   zip members): numpy shuffles both as it shuffles indices. */
static void rows_and_lists_shuffle_as_numpy_shuffles_them(void **state)
{
    (void)state;
    size_t count = 25000;
    int32_t *rows = malloc(sizeof *rows * count * 3);
    assert_non_null(rows);
    for (size_t index = 0; index < count * 3; index++)
        rows[index] = (int32_t)index;
    struct numpy_random random;
    numpy_random_seed(&random, 123522);
    numpy_shuffle(&random, rows, count, 3 * sizeof *rows);
    uint8_t *expected = numpy_bytes(123522, count,
                                    "(lambda a: (rs.shuffle(a), a.tobytes())[1])"
                                    "(numpy.arange(3 * n, dtype='<i4').reshape(n, 3))",
                                    count * 12);
    assert_memory_equal(rows, expected, count * 12);
    free(expected);
    uint8_t *listed = numpy_bytes(123522, count,
                                  "(lambda a: (rs.shuffle(a), numpy.array(a, '<i4').tobytes())[1])"
                                  "(list(range(0, 3 * n, 3)))",
                                  count * 4);
    for (size_t index = 0; index < count; index++) {
        int32_t value;
        memcpy(&value, listed + index * 4, 4);
        assert_int_equal(value, rows[index * 3]);
    }
    free(listed);
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_numbers_are_mt19937s),
        cmocka_unit_test(intervals_are_numpys_for_32_and_64_bit_ranges),
        cmocka_unit_test(permutations_are_numpys),
        cmocka_unit_test(imagenet_sized_permutations_are_numpys),
        cmocka_unit_test(rows_and_lists_shuffle_as_numpy_shuffles_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
