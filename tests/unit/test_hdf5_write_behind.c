/* Unit tests of write-behind on HDF5 files: the sec2 driver's descriptor is the file's own, and
   the file's head stays cached; other drivers leave write-behind off. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/h5py/hdf5_write_behind.h"
#include "support.h"

#include <sys/stat.h>

static void test_sec2_file_gives_its_descriptor(void **state)
{
    (void)state;
    char path[4200];
    test_path(path, sizeof path, test_directory, "sec2.h5");
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(file >= 0);
    struct write_behind behind;
    hdf5_write_behind_start(&behind, file);
    struct stat opened, named;
    assert_true(behind.descriptor >= 0);
    assert_int_equal(fstat(behind.descriptor, &opened), 0);
    assert_int_equal(stat(path, &named), 0);
    assert_int_equal(opened.st_ino, named.st_ino);
    assert_int_equal(opened.st_dev, named.st_dev);
    assert_int_equal(behind.written, 0);
    assert_true(behind.keep_head);
    assert_true(H5Fclose(file) >= 0);
}

static void test_other_drivers_leave_it_off(void **state)
{
    (void)state;
    char path[4200];
    test_path(path, sizeof path, test_directory, "core.h5");
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    assert_true(H5Pset_fapl_core(access, 1 << 16, false) >= 0);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, access);
    assert_true(file >= 0);
    struct write_behind behind = {.descriptor = 7};
    hdf5_write_behind_start(&behind, file);
    assert_int_equal(behind.descriptor, -1);
    assert_true(H5Fclose(file) >= 0);
    H5Pclose(access);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sec2_file_gives_its_descriptor),
        cmocka_unit_test(test_other_drivers_leave_it_off),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
