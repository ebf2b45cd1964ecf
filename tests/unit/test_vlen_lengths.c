/* Unit tests for common/h5py/vlen_lengths.c: the lengths variable-length strings declare, read
   from an attribute and a dataset without reading the strings; other types refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/h5py/vlen_lengths.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char directory[] = "/tmp/fuel-vlen-lengths-XXXXXX";
static char path[80];

/* A file holding the strings as a root attribute "texts" and a dataset "names", and an integer
   attribute "number". */
static hid_t file_make(const char **strings, hsize_t count)
{
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate_simple(1, &count, NULL);
    assert_true(file >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0);
    hid_t attribute = H5Acreate2(file, "texts", type, space, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(attribute, type, strings) >= 0);
    H5Aclose(attribute);
    hid_t dataset = H5Dcreate2(file, "names", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, strings) >= 0);
    H5Dclose(dataset);
    int number = 7;
    hid_t scalar = H5Screate(H5S_SCALAR);
    attribute = H5Acreate2(file, "number", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(attribute, H5T_NATIVE_INT, &number) >= 0);
    H5Aclose(attribute);
    H5Sclose(scalar);
    H5Sclose(space);
    H5Tclose(type);
    return file;
}

static void lengths_are_summed_without_the_strings(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(directory));
    snprintf(path, sizeof path, "%s/file.hdf5", directory);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char *strings[] = {"fuel", "", "provenance of seventeen"};
    H5Fclose(file_make(strings, 3));
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    uint64_t total, longest;
    hid_t attribute = H5Aopen(file, "texts", H5P_DEFAULT);
    assert_int_equal(vlen_lengths_read(attribute, -1, 3, &total, &longest), 0);
    assert_int_equal(total, 27);
    assert_int_equal(longest, 23);
    /* The strings are still read as they are afterwards. */
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    char *read[3] = {0};
    assert_true(H5Aread(attribute, type, read) >= 0);
    assert_string_equal(read[2], "provenance of seventeen");
    hid_t space = H5Aget_space(attribute);
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, read);
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attribute);
    hid_t dataset = H5Dopen2(file, "names", H5P_DEFAULT);
    assert_int_equal(vlen_lengths_read(-1, dataset, 3, &total, &longest), 0);
    assert_int_equal(total, 27);
    H5Dclose(dataset);
    attribute = H5Aopen(file, "number", H5P_DEFAULT);
    assert_int_equal(vlen_lengths_read(attribute, -1, 1, &total, &longest), -1);
    H5Aclose(attribute);
    H5Fclose(file);
    unlink(path);
    rmdir(directory);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lengths_are_summed_without_the_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
