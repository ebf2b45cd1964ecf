/* Unit tests for common/h5py_tag.c: the four attributes set as h5py strings, replacing old ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_tag.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char directory[] = "/tmp/fuel-tag-XXXXXX";
static char path[64];

static int make_directory(void **state)
{
    (void)state;
    if (mkdtemp(directory) == NULL)
        return -1;
    snprintf(path, sizeof path, "%s/file.hdf5", directory);
    return 0;
}

static int remove_directory(void **state)
{
    (void)state;
    return rmdir(directory);
}

/* A file with an old fixed-length fuel_convert_command, to be replaced. */
static int make_file(void **state)
{
    (void)state;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, 3);
    hid_t attribute = H5Acreate2(file, "fuel_convert_command", type, space, H5P_DEFAULT,
                                 H5P_DEFAULT);
    H5Awrite(attribute, type, "old");
    H5Aclose(attribute);
    H5Tclose(type);
    H5Sclose(space);
    return H5Fclose(file) < 0 ? -1 : 0;
}

static int remove_file(void **state)
{
    (void)state;
    return unlink(path);
}

/* The attribute NAME of the file: a scalar variable-length ASCII string; NULL when absent. */
static char *read_attribute(const char *name)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    char *copy = NULL;
    if (H5Aexists(file, name) > 0) {
        hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
        hid_t type = H5Aget_type(attribute);
        assert_true(H5Tis_variable_str(type) > 0);
        assert_int_equal(H5Tget_cset(type), H5T_CSET_ASCII);
        char *value = NULL;
        assert_true(H5Aread(attribute, type, &value) >= 0);
        copy = strdup(value);
        H5free_memory(value);
        H5Tclose(type);
        H5Aclose(attribute);
    }
    H5Fclose(file);
    return copy;
}

static void assert_attribute(const char *name, const char *expected)
{
    char *value = read_attribute(name);
    assert_non_null(value);
    assert_string_equal(value, expected);
    free(value);
}

static void test_sets_and_replaces(void **state)
{
    (void)state;
    assert_int_equal(h5py_tag(path, "fuel-convert toy -d raw", "0.1.0", "{\"tool\": \"fuel\"}"),
                     EXIT_OK);
    assert_attribute("h5py_interface_version", "0.3");
    assert_attribute("fuel_convert_version", "0.1.0");
    assert_attribute("fuel_convert_command", "fuel-convert toy -d raw");
    assert_attribute("fuel_provenance", "{\"tool\": \"fuel\"}");
    assert_int_equal(h5py_tag(path, "again", "0.2.0", "{}"), EXIT_OK);
    assert_attribute("fuel_convert_command", "again");
    assert_attribute("fuel_provenance", "{}");
}

static void test_without_provenance(void **state)
{
    (void)state;
    assert_int_equal(h5py_tag(path, "command", "0.1.0", NULL), EXIT_OK);
    assert_attribute("fuel_convert_command", "command");
    assert_null(read_attribute("fuel_provenance"));
}

static void test_not_hdf5(void **state)
{
    (void)state;
    FILE *stream = fopen(path, "w");
    assert_non_null(stream);
    fputs("not hdf5\n", stream);
    fclose(stream);
    assert_int_equal(h5py_tag(path, "command", "0.1.0", NULL), EXIT_WRITE);
    char expected[256];
    snprintf(expected, sizeof expected, "cannot write: %s: HDF5 cannot open it read-write", path);
    assert_string_equal(error_message(), expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sets_and_replaces, make_file, remove_file),
        cmocka_unit_test_setup_teardown(test_without_provenance, make_file, remove_file),
        cmocka_unit_test_setup_teardown(test_not_hdf5, make_file, remove_file),
    };
    return cmocka_run_group_tests(tests, make_directory, remove_directory);
}
