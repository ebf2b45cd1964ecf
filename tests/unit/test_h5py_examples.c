/* Unit tests of reading a source's examples: selections of Fuel's own files, ranges, index lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_examples.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_selections_of_mnist(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("mnist.hdf5");
    struct h5py_selection selection;
    assert_int_equal(h5py_selection_find(&selection, file, "train", "features"), EXIT_OK);
    assert_int_equal(selection.start, 0);
    assert_int_equal(selection.stop, 12);
    assert_int_equal(selection.count, 12);
    assert_int_equal(h5py_selection_example(&selection, 3), 3);
    h5py_selection_free(&selection);
    assert_int_equal(h5py_selection_find(&selection, file, "test", "targets"), EXIT_OK);
    assert_int_equal(selection.count, 2);
    assert_int_equal(h5py_selection_example(&selection, 1), 13);
    h5py_selection_free(&selection);
    assert_int_equal(h5py_selection_find(&selection, file, "valid", "features"), EXIT_USAGE);
    assert_int_equal(h5py_selection_find(&selection, file, "train", "nothing"), EXIT_USAGE);
    h5py_reader_close(file);
}

static void test_ranges_and_indices_agree(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("mnist.hdf5");
    struct h5py_examples examples;
    assert_int_equal(h5py_examples_open(&examples, file, "features"), EXIT_OK);
    assert_string_equal(examples.descr, "|u1");
    assert_int_equal(examples.rank, 4);
    assert_int_equal(examples.shape[0], 14);
    assert_int_equal(examples.example_bytes, 784);
    unsigned char *all = malloc(14 * 784), *picked = malloc(5 * 784);
    assert_int_equal(h5py_examples_read(&examples, 0, 14, all), EXIT_OK);
    const uint64_t indices[] = {13, 2, 3, 2, 0};
    assert_int_equal(h5py_examples_read_indices(&examples, indices, 5, picked), EXIT_OK);
    for (size_t number = 0; number < 5; number++)
        assert_memory_equal(picked + number * 784, all + indices[number] * 784, 784);
    size_t nonzero = 0;
    for (size_t byte = 0; byte < 14 * 784; byte++)
        nonzero += all[byte] != 0;
    assert_true(nonzero > 1000);
    assert_int_equal(h5py_examples_read(&examples, 10, 5, all), EXIT_CORRUPT_INPUT);
    const uint64_t past[] = {1, 14};
    assert_int_equal(h5py_examples_read_indices(&examples, past, 2, picked), EXIT_CORRUPT_INPUT);
    free(all);
    free(picked);
    h5py_examples_close(&examples);
    h5py_reader_close(file);
}

static void test_float_and_missing_sources(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("mnist_float32.hdf5");
    struct h5py_examples examples;
    assert_int_equal(h5py_examples_open(&examples, file, "features"), EXIT_OK);
    assert_string_equal(examples.descr, "<f4");
    assert_true(examples.is_float);
    float values[784];
    assert_int_equal(h5py_examples_read(&examples, 0, 1, values), EXIT_OK);
    float largest = 0;
    for (size_t index = 0; index < 784; index++)
        largest = values[index] > largest ? values[index] : largest;
    assert_true(largest > 0.5f && largest <= 1.0f);
    h5py_examples_close(&examples);
    assert_int_equal(h5py_examples_open(&examples, file, "nothing"), EXIT_MISSING_INPUT);
    h5py_reader_close(file);
}

static void test_variable_length_refused(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("svhn_format_1.hdf5");
    struct h5py_examples examples;
    error_clear();
    assert_int_equal(h5py_examples_open(&examples, file, "features"), EXIT_USAGE);
    assert_non_null(strstr(error_message(), "variable-length"));
    h5py_reader_close(file);
}

/* Fixed-length byte strings: refused as not numeric, read as stored with the strings variant. */
static void test_strings(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("svhn_format_1.hdf5");
    struct h5py_examples examples;
    error_clear();
    assert_int_equal(h5py_examples_open(&examples, file, "bbox_heights_vlen_axis_labels"),
                     EXIT_USAGE);
    assert_string_equal(error_message(), "source bbox_heights_vlen_axis_labels is not numeric");
    assert_int_equal(h5py_examples_open_strings(&examples, file, "bbox_heights_vlen_axis_labels"),
                     EXIT_OK);
    assert_true(examples.is_string);
    assert_string_equal(examples.descr, "|S12");
    assert_int_equal(examples.example_bytes, 12);
    char strings[24];
    assert_int_equal(h5py_examples_read(&examples, 0, 2, strings), EXIT_OK);
    assert_memory_equal(strings, "bounding_box" "height\0\0\0\0\0\0", 24);
    h5py_examples_close(&examples);
    assert_int_equal(h5py_examples_open_strings(&examples, file, "features"), EXIT_USAGE);
    h5py_reader_close(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selections_of_mnist),
        cmocka_unit_test(test_ranges_and_indices_agree),
        cmocka_unit_test(test_float_and_missing_sources),
        cmocka_unit_test(test_variable_length_refused),
        cmocka_unit_test(test_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
