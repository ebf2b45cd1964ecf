/* Unit tests of write-behind on HDF5 files: the sec2 driver's descriptor is the file's own, and
   the file's head stays cached; other drivers leave write-behind off; h5py_writer's files have
   blocks allocated ahead while written, none past their end once finished. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_writer.h"
#include "common/h5py/hdf5_write_behind.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>
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

/* Bytes of disk the file at PATH holds, and its size in *SIZE. */
static uint64_t allocated_bytes(const char *path, uint64_t *size)
{
    struct stat status;
    assert_int_equal(stat(path, &status), 0);
    *size = (uint64_t)status.st_size;
    return (uint64_t)status.st_blocks * 512;
}

/* Writes ROWS rows of ROW bytes (ROWS * ROW of 40 MiB) one call each; while written, the file
   holds blocks past its end, and none once finished; the rows read back whole. */
static void write_rows_ahead(const char *name, size_t row_bytes, uint64_t rows)
{
    char path[4200];
    test_path(path, sizeof path, test_directory, name);
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 2, .shape = {rows, row_bytes},
        .axis_labels = {"batch", "feature"}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &features, &index), EXIT_OK);
    uint8_t *row = malloc(row_bytes);
    for (uint64_t number = 0; number < rows; number++) {
        memset(row, (int)(number * 5 + 1), row_bytes);
        assert_int_equal(h5py_writer_write(writer, index, number, 1, row), EXIT_OK);
    }
    uint64_t size;
    assert_true(allocated_bytes(path, &size) > size + (8 << 20));
    static const struct h5py_attributes attributes = {"fuel-convert test", "0.1.0", NULL, NULL};
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    assert_true(allocated_bytes(path, &size) < size + (1 << 20));
    assert_true(size > rows * row_bytes);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "features", H5P_DEFAULT);
    uint8_t *read_back = malloc(rows * row_bytes);
    assert_true(H5Dread(dataset, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, read_back) >= 0);
    for (uint64_t number = 0; number < rows; number++) {
        memset(row, (int)(number * 5 + 1), row_bytes);
        assert_memory_equal(read_back + number * row_bytes, row, row_bytes);
    }
    free(read_back);
    free(row);
    H5Dclose(dataset);
    H5Fclose(file);
}

/* Rows gathered into blocks, and rows large enough to be written at once. */
static void test_writer_releases_the_blocks_it_allocated_ahead(void **state)
{
    (void)state;
    write_rows_ahead("blocks.hdf5", 1 << 20, 40);
    write_rows_ahead("direct.hdf5", 4 << 20, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sec2_file_gives_its_descriptor),
        cmocka_unit_test(test_other_drivers_leave_it_off),
        cmocka_unit_test(test_writer_releases_the_blocks_it_allocated_ahead),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
