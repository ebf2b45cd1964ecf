/* Unit tests for exporters/stored_bytes.c: variable-length bytes read straight from a contiguous
   dataset (empty, small and large examples, several to a heap collection, runs and single
   examples) give what HDF5 gives; a chunked dataset is read through HDF5; a length that
   disagrees with the shapes is refused either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "exporters/stored_bytes.h"
#include "support.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXAMPLES = 9 };

static const uint64_t sizes[EXAMPLES] = {0, 1, 7, 8, 9, 100, 5000, 70000, 3};

static unsigned char value_of(size_t example, size_t index)
{
    return (unsigned char)(example * 31 + index * 7 + 1);
}

/* NAME in the test directory: one dataset "bytes" of the examples, chunked when CHUNKED. */
static void file_make(const char *name, bool chunked, char *path, size_t size)
{
    test_path(path, size, test_directory, name);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t type = H5Tvlen_create(H5T_NATIVE_UINT8);
    hsize_t count = EXAMPLES, chunk = 4;
    hid_t space = H5Screate_simple(1, &count, NULL), creation = H5Pcreate(H5P_DATASET_CREATE);
    if (chunked)
        H5Pset_chunk(creation, 1, &chunk);
    hid_t dataset = H5Dcreate2(file, "bytes", type, space, H5P_DEFAULT, creation, H5P_DEFAULT);
    hvl_t elements[EXAMPLES];
    for (size_t example = 0; example < EXAMPLES; example++) {
        unsigned char *data = malloc(sizes[example] + 1);
        for (size_t index = 0; index < sizes[example]; index++)
            data[index] = value_of(example, index);
        elements[example] = (hvl_t){.len = sizes[example], .p = data};
    }
    assert_true(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, elements) >= 0);
    for (size_t example = 0; example < EXAMPLES; example++)
        free(elements[example].p);
    H5Dclose(dataset);
    H5Pclose(creation);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(file);
}

/* Reads INDICES of the file at PATH: the result, and whether every example was read from the
   file straight. */
static int read_back(const char *path, const uint64_t *indices, size_t count,
                     const uint64_t *expected_sizes, bool *direct)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    struct h5py_vlen_examples source = {.source = "bytes", .shapes = -1, .count = EXAMPLES,
                                        .example_rank = 1, .element_size = 1};
    source.dataset = H5Dopen2(file, "bytes", H5P_DEFAULT);
    source.memory_type = H5Tvlen_create(H5T_NATIVE_UINT8);
    h5py_vlen_direct_open(&source.direct, source.dataset, EXAMPLES);
    struct stored_bytes reader;
    assert_int_equal(stored_bytes_open(&reader), EXIT_OK);
    void *data[EXAMPLES] = {0};
    int result = stored_bytes_read(&reader, &source, indices, count, expected_sizes, data);
    *direct = reader.direct_examples == count;
    for (size_t number = 0; result == EXIT_OK && number < count; number++)
        for (size_t index = 0; index < expected_sizes[number]; index++)
            assert_int_equal(((unsigned char *)data[number])[index],
                             value_of(indices[number], index));
    for (size_t number = 0; number < count; number++)
        free(data[number]);
    stored_bytes_close(&reader);
    h5py_vlen_direct_close(&source.direct);
    H5Tclose(source.memory_type);
    H5Dclose(source.dataset);
    H5Fclose(file);
    return result;
}

static void test_direct_and_through_hdf5(void **state)
{
    (void)state;
    char contiguous[256], chunked[256];
    file_make("contiguous.hdf5", false, contiguous, sizeof contiguous);
    file_make("chunked.hdf5", true, chunked, sizeof chunked);
    const uint64_t all[EXAMPLES] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const uint64_t scattered[] = {7, 2, 3, 0, 8, 5};
    uint64_t scattered_sizes[6];
    for (size_t number = 0; number < 6; number++)
        scattered_sizes[number] = sizes[scattered[number]];
    bool direct;
    assert_int_equal(read_back(contiguous, all, EXAMPLES, sizes, &direct), EXIT_OK);
    assert_true(direct);
    assert_int_equal(read_back(contiguous, scattered, 6, scattered_sizes, &direct), EXIT_OK);
    assert_true(direct);
    assert_int_equal(read_back(chunked, all, EXAMPLES, sizes, &direct), EXIT_OK);
    assert_false(direct);
    assert_int_equal(read_back(chunked, scattered, 6, scattered_sizes, &direct), EXIT_OK);
}

static void test_length_disagreeing(void **state)
{
    (void)state;
    char contiguous[256];
    file_make("contiguous.hdf5", false, contiguous, sizeof contiguous);
    const uint64_t indices[] = {5, 6};
    const uint64_t wrong[] = {100, 4999};
    bool direct;
    error_clear();
    assert_int_equal(read_back(contiguous, indices, 2, wrong, &direct), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "example 6 holds 5000 bytes, its shape says 4999"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_and_through_hdf5),
        cmocka_unit_test(test_length_disagreeing),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
