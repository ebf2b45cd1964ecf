/* Unit tests for common/h5py/hdf5_tapped_driver.c: HDF5 reads a file's values through it, its tap
   hashes the bytes HDF5 read (not a second read of the file), and it refuses to write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/base/read_tap.h"
#include "common/h5py/hdf5_tapped_driver.h"
#include "support.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COUNT = 300000 };

static char path[256];

/* A file with one dataset of COUNT int32 values 0, 1, ...: more than one fill block of bytes. */
static int make_file(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(path, sizeof path, test_directory, "values.h5");
    int *values = malloc(COUNT * sizeof *values);
    for (int index = 0; index < COUNT; index++)
        values[index] = index;
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dimension = COUNT;
    hid_t space = H5Screate_simple(1, &dimension, NULL);
    hid_t dataset = H5Dcreate2(file, "values", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT);
    herr_t written = H5Dwrite(dataset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(dataset);
    H5Sclose(space);
    H5Fclose(file);
    free(values);
    return written < 0 ? -1 : 0;
}

/* The file's bytes, read whole. */
static unsigned char *file_bytes(size_t *size)
{
    FILE *stream = fopen(path, "rb");
    assert_non_null(stream);
    fseek(stream, 0, SEEK_END);
    *size = (size_t)ftell(stream);
    rewind(stream);
    unsigned char *bytes = malloc(*size);
    assert_int_equal(fread(bytes, 1, *size, stream), *size);
    fclose(stream);
    return bytes;
}

/* Overwrites the file's first byte (the signature HDF5 reads at the open) with BYTE. */
static void first_byte_write(unsigned char byte)
{
    FILE *stream = fopen(path, "r+b");
    assert_non_null(stream);
    assert_int_equal(fputc(byte, stream), byte);
    fclose(stream);
}

/* Opens the file with ACCESS, checks its values, closes it, then changes its first byte; returns
   the sha256 its tap gives. */
static void read_then_change(hid_t access, char sha256[HASH_HEX_SIZE])
{
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, false), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, access);
    assert_true(file >= 0);
    hid_t dataset = H5Dopen2(file, "values", H5P_DEFAULT);
    int *values = malloc(COUNT * sizeof *values);
    assert_true(H5Dread(dataset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    assert_int_equal(values[0], 0);
    assert_int_equal(values[COUNT - 1], COUNT - 1);
    free(values);
    H5Dclose(dataset);
    H5Fclose(file);
    first_byte_write('X');
    struct file_digests digests;
    assert_int_equal(read_tap_finish(tap, &digests), EXIT_OK);
    memcpy(sha256, digests.sha256, HASH_HEX_SIZE);
    read_tap_free(tap);
    first_byte_write(0x89);
}

/* Through the driver, the digest is of the bytes as HDF5 read them, before the change; through
   HDF5's own driver, the file is read again at the finish and its digest has the change. */
static void test_digest_of_the_bytes_read(void **state)
{
    (void)state;
    size_t size;
    unsigned char *bytes = file_bytes(&size);
    struct file_digests original, changed;
    assert_int_equal(hash_memory_digests(bytes, size, false, &original), EXIT_OK);
    bytes[0] = 'X';
    assert_int_equal(hash_memory_digests(bytes, size, false, &changed), EXIT_OK);
    free(bytes);
    char sha256[HASH_HEX_SIZE];
    hid_t access = hdf5_tapped_access();
    assert_true(access >= 0);
    read_then_change(access, sha256);
    assert_string_equal(sha256, original.sha256);
    H5Pclose(access);
    read_then_change(H5P_DEFAULT, sha256);
    assert_string_equal(sha256, changed.sha256);
}

/* A file opened for writing through it is refused; a missing file fails to open. */
static void test_read_only(void **state)
{
    (void)state;
    hid_t access = hdf5_tapped_access();
    H5E_BEGIN_TRY
    {
        assert_true(H5Fopen(path, H5F_ACC_RDWR, access) < 0);
        char missing[300];
        snprintf(missing, sizeof missing, "%s.missing", path);
        assert_true(H5Fopen(missing, H5F_ACC_RDONLY, access) < 0);
    }
    H5E_END_TRY;
    H5Pclose(access);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digest_of_the_bytes_read),
        cmocka_unit_test(test_read_only),
    };
    return cmocka_run_group_tests(tests, make_file, test_directory_teardown);
}
