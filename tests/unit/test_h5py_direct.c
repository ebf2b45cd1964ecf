/* Unit tests of direct reads: they agree with HDF5's, and only contiguous native layouts use them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_direct.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fuel's own CIFAR-10 file among the fixtures. */
static const char *cifar10_path(void)
{
    static char path[4096];
    test_path(path, sizeof path, test_data_directory(), "expected/cifar10.hdf5");
    return path;
}

static void test_direct_reads_agree_with_hdf5(void **state)
{
    (void)state;
    struct h5py_file *file = NULL;
    assert_int_equal(h5py_reader_open(&file, cifar10_path()), EXIT_OK);
    struct h5py_examples examples;
    struct h5py_direct direct;
    assert_int_equal(h5py_examples_open(&examples, file, "features"), EXIT_OK);
    assert_true(h5py_direct_open(&direct, &examples, file->path));
    const uint64_t indices[] = {61, 0, 5, 5, 30, 29};
    unsigned char *expected = malloc(6 * 3072), *got = malloc(6 * 3072);
    assert_int_equal(h5py_examples_read_indices(&examples, indices, 6, expected), EXIT_OK);
    assert_int_equal(h5py_direct_read_indices(&direct, indices, 6, got), EXIT_OK);
    assert_memory_equal(got, expected, 6 * 3072);
    assert_int_equal(h5py_examples_read(&examples, 57, 5, expected), EXIT_OK);
    assert_int_equal(h5py_direct_read(&direct, 57, 5, got), EXIT_OK);
    assert_memory_equal(got, expected, 5 * 3072);
    assert_int_equal(h5py_direct_read(&direct, 60, 3, got), EXIT_CORRUPT_INPUT);
    const uint64_t past[] = {3, 62};
    assert_int_equal(h5py_direct_read_indices(&direct, past, 2, got), EXIT_CORRUPT_INPUT);
    free(expected);
    free(got);
    h5py_direct_close(&direct);
    h5py_examples_close(&examples);
    h5py_reader_close(file);
}

/* Writes dataset NAME (10 x 4 of STORED type, values 0..39) into FILE with PROPERTIES. */
static void dataset_write(hid_t file, const char *name, hid_t stored, hid_t properties)
{
    hsize_t dimensions[2] = {10, 4};
    uint16_t values[40];
    for (uint16_t index = 0; index < 40; index++)
        values[index] = index;
    hid_t space = H5Screate_simple(2, dimensions, NULL);
    hid_t dataset = H5Dcreate2(file, name, stored, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    assert_true(dataset >= 0);
    assert_true(H5Dwrite(dataset, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(dataset);
    H5Sclose(space);
}

static void test_other_layouts_go_through_hdf5(void **state)
{
    (void)state;
    char path[4096];
    test_path(path, sizeof path, test_directory, "layouts.hdf5");
    hid_t handle = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t chunked = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[2] = {5, 4};
    H5Pset_chunk(chunked, 2, chunk);
    H5Pset_deflate(chunked, 4);
    dataset_write(handle, "native", H5T_NATIVE_UINT16, H5P_DEFAULT);
    dataset_write(handle, "big_endian", H5T_STD_U16BE, H5P_DEFAULT);
    dataset_write(handle, "compressed", H5T_NATIVE_UINT16, chunked);
    H5Pclose(chunked);
    H5Fclose(handle);
    struct h5py_file file = {.path = path, .handle = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)};
    const char *names[] = {"native", "big_endian", "compressed"};
    for (size_t name = 0; name < 3; name++) {
        struct h5py_examples examples;
        struct h5py_direct direct;
        assert_int_equal(h5py_examples_open(&examples, &file, names[name]), EXIT_OK);
        bool usable = h5py_direct_open(&direct, &examples, path);
        assert_int_equal(usable, name == 0);
        if (usable) {
            uint16_t row[4];
            assert_int_equal(h5py_direct_read(&direct, 9, 1, row), EXIT_OK);
            assert_int_equal(row[0], 36);
            assert_int_equal(row[3], 39);
            h5py_direct_close(&direct);
        }
        h5py_examples_close(&examples);
    }
    H5Fclose(file.handle);
}

/* A file cut short after the direct reads were prepared (another process truncating it while
   fuel stats reads it on its workers): the reads past the cut fail with the source's error. */
static void test_a_file_cut_short_while_read(void **state)
{
    (void)state;
    char path[4096];
    test_path(path, sizeof path, test_directory, "cut.hdf5");
    hid_t handle = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    dataset_write(handle, "native", H5T_NATIVE_UINT16, H5P_DEFAULT);
    H5Fclose(handle);
    struct h5py_file file = {.path = path, .handle = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)};
    struct h5py_examples examples;
    struct h5py_direct direct;
    assert_int_equal(h5py_examples_open(&examples, &file, "native"), EXIT_OK);
    assert_true(h5py_direct_open(&direct, &examples, path));
    assert_int_equal(truncate(path, (off_t)(direct.offset + 5 * direct.example_bytes)), 0);
    uint16_t rows[5 * 4];
    assert_int_equal(h5py_direct_read(&direct, 0, 5, rows), EXIT_OK);
    assert_int_equal(rows[19], 19);
    assert_int_equal(h5py_direct_read(&direct, 4, 2, rows), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot read examples: the file ends early");
    h5py_direct_close(&direct);
    h5py_examples_close(&examples);
    H5Fclose(file.handle);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_reads_agree_with_hdf5),
        cmocka_unit_test(test_other_layouts_go_through_hdf5),
        cmocka_unit_test(test_a_file_cut_short_while_read),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
