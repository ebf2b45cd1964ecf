/* Unit tests of the .npy header: numpy's exact bytes for several shapes and dtypes, 64-byte
   alignment, the rank limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/formats/npy.h"

#include <string.h>

/* numpy.lib.format.write_array_header_1_0's output for the same arrays. */
static void check_header(const char *descr, const uint64_t *shape, int rank, const char *dictionary)
{
    char header[NPY_HEADER_MAX];
    size_t length = npy_header(header, descr, shape, rank);
    assert_int_equal(length % 64, 0);
    assert_memory_equal(header, "\x93NUMPY\x01\x00", 8);
    assert_int_equal((unsigned char)header[8] | (unsigned char)header[9] << 8, length - 10);
    assert_memory_equal(header + 10, dictionary, strlen(dictionary));
    for (size_t index = 10 + strlen(dictionary); index < length - 1; index++)
        assert_int_equal(header[index], ' ');
    assert_int_equal(header[length - 1], '\n');
}

static void check_shapes(void **state)
{
    (void)state;
    const uint64_t images[] = {14, 1, 28, 28};
    check_header("<f4", images, 4, "{'descr': '<f4', 'fortran_order': False, 'shape': (14, 1, 28, 28), }");
    const uint64_t vector[] = {7};
    check_header("|u1", vector, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (7,), }");
    check_header("|b1", NULL, 0, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
    const uint64_t large[] = {6000000000u, 3};
    check_header("<f8", large, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (6000000000, 3), }");
}

static void check_length_of_a_known_header(void **state)
{
    (void)state;
    char header[NPY_HEADER_MAX];
    const uint64_t shape[] = {14, 1, 28, 28};
    assert_int_equal(npy_header(header, "<f4", shape, 4), 128);
    assert_int_equal(npy_header(header, "<f4", shape, NPY_MAX_RANK + 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_shapes),
        cmocka_unit_test(check_length_of_a_known_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
