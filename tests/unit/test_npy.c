/* Unit tests of the .npy header: numpy's exact bytes for several shapes and dtypes, 64-byte
   alignment, the rank limit; the reader on numpy's headers, old and odd ones, and refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/npy/npy.h"

#include <stdio.h>
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


/* A format 1.0 header around DICTIONARY (or 2.0 when VERSION is 2), into HEADER; its length. */
static size_t make_header(unsigned char *header, const char *dictionary, int version)
{
    size_t preamble = version == 1 ? 10 : 12, length = strlen(dictionary);
    memcpy(header, "\x93NUMPY", 6);
    header[6] = (unsigned char)version;
    header[7] = 0;
    header[8] = (unsigned char)(length & 0xff);
    header[9] = (unsigned char)(length >> 8);
    if (version != 1)
        header[10] = header[11] = 0;
    memcpy(header + preamble, dictionary, length);
    return preamble + length;
}

static int parse(const char *dictionary, int version, struct npy_array *array)
{
    unsigned char header[4096];
    size_t length = make_header(header, dictionary, version), declared = 0;
    int result = npy_header_length(header, NPY_PREAMBLE_MAX, "x.npy", &declared);
    if (result != EXIT_OK)
        return result;
    assert_int_equal(declared, length);
    return npy_header_parse(header, length, "x.npy", array);
}

static void reads_what_the_writer_writes(void **state)
{
    (void)state;
    char header[NPY_HEADER_MAX];
    const uint64_t shape[] = {90, 3, 5, 5};
    size_t length = npy_header(header, "|u1", shape, 4);
    struct npy_array array;
    assert_int_equal(npy_header_parse((unsigned char *)header, length, "x.npy", &array), EXIT_OK);
    assert_int_equal(array.kind, 'u');
    assert_int_equal(array.item_size, 1);
    assert_false(array.big_endian);
    assert_false(array.fortran_order);
    assert_int_equal(array.rank, 4);
    assert_memory_equal(array.shape, shape, sizeof shape);
    assert_int_equal(array.elements, 90 * 75);
    assert_int_equal(array.data_bytes, 90 * 75);
    assert_int_equal(array.header_length, 128);
}

static void reads_numpy_variants(void **state)
{
    (void)state;
    struct npy_array array;
    /* numpy 2's key order and spacing, format 2.0, Fortran order, big-endian. */
    assert_int_equal(parse("{'descr':'>i8','fortran_order':True,'shape':(3,4),}   \n", 2, &array),
                     EXIT_OK);
    assert_int_equal(array.kind, 'i');
    assert_int_equal(array.item_size, 8);
    assert_true(array.big_endian);
    assert_true(array.fortran_order);
    assert_int_equal(array.data_bytes, 96);
    /* Python 2's longs, no trailing comma, a scalar. */
    assert_int_equal(parse("{'shape': (10L, 2L), 'fortran_order': False, 'descr': '<f8'}", 1,
                           &array), EXIT_OK);
    assert_int_equal(array.shape[0], 10);
    assert_int_equal(array.data_bytes, 160);
    assert_int_equal(parse("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 1, &array),
                     EXIT_OK);
    assert_int_equal(array.rank, 0);
    assert_int_equal(array.elements, 1);
    assert_int_equal(parse("{'descr': '<u2', 'fortran_order': False, 'shape': (0, 5), }", 3,
                           &array), EXIT_OK);
    assert_int_equal(array.data_bytes, 0);
}

static void expect_refusal(const char *dictionary, const char *fragment)
{
    struct npy_array array;
    assert_int_equal(parse(dictionary, 1, &array), EXIT_CORRUPT_INPUT);
    if (strstr(error_message(), fragment) == NULL)
        fail_msg("%s: message \"%s\" lacks \"%s\"", dictionary, error_message(), fragment);
}

static void refuses_what_is_not_numbers(void **state)
{
    (void)state;
    expect_refusal("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
                   "cannot read .npy header: x.npy: dtype '|O' holds Python objects (a pickle): refused");
    expect_refusal("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }",
                   "a structured dtype");
    expect_refusal("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
                   "dtype '<c8' is not bool, an integer, float32 or float64");
    expect_refusal("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", "'<f2'");
    expect_refusal("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", "'<U3'");
    expect_refusal("{'descr': '|i4', 'fortran_order': False, 'shape': (2,), }", "'|i4'");
    expect_refusal("{'descr': '<i04', 'fortran_order': False, 'shape': (2,), }", "'<i04'");
    expect_refusal("{'descr': '', 'fortran_order': False, 'shape': (2,), }", "dtype ''");
}

static void refuses_malformed_dictionaries(void **state)
{
    (void)state;
    expect_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                   "4294967296, 2), }", "the shape's size overflows 64 bits");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                   "something other than a dimension");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }",
                   "something other than a dimension");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (3), }", "not a tuple");
    expect_refusal("{'descr': '<f8', 'fortran_order': 0, 'shape': (3,), }", "not True or False");
    expect_refusal("{'descr': '<f8', 'shape': (3,), }", "missing");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}",
                   "unexpected key 'x'");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)} junk",
                   "something follows the dictionary");
    expect_refusal("['descr']", "not a dictionary");
    expect_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,"
                   "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }", "more than 32 dimensions");
}

static void refuses_bad_preambles(void **state)
{
    (void)state;
    size_t length;
    assert_int_equal(npy_header_length((const unsigned char *)"\x93NUMP", 7, "x.npy", &length),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot read .npy header: x.npy: not a .npy file (no \\x93NUMPY magic)");
    assert_int_equal(npy_header_length((const unsigned char *)"\x93NUMPY\x04\x00\x10\x00", 10,
                                       "x.npy", &length), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot read .npy header: x.npy: format version 4.0, not 1.0, 2.0 or 3.0");
    assert_int_equal(npy_header_length((const unsigned char *)"\x93NUMPY\x02\x00\x01\x00\x01\x00",
                                       12, "x.npy", &length), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot read .npy header: x.npy: 65549 bytes, more than 65548");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_shapes),
        cmocka_unit_test(check_length_of_a_known_header),
        cmocka_unit_test(reads_what_the_writer_writes),
        cmocka_unit_test(reads_numpy_variants),
        cmocka_unit_test(refuses_what_is_not_numbers),
        cmocka_unit_test(refuses_malformed_dictionaries),
        cmocka_unit_test(refuses_bad_preambles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
