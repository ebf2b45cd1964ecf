/* Unit tests for common/h5py_writer.c: files read back through the HDF5 C API and through h5py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "common/h5py/h5py_writer.h"
#include "support.h"

#include <fcntl.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

static void path_in_directory(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/%s", test_directory, name);
}

static const struct h5py_attributes attributes = {
    .command = "fuel-convert mnist -d raw -o out",
    .version = "0.1.0",
    .provenance_json = "{\"tool\":\"fuel\"}",
};

/* features uint8 (5,1,2,3) and targets uint8 (5,1); train 0..3, test 3..5 for both. */
static void fill_fixed_file(struct h5py_writer *writer)
{
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4, .shape = {5, 1, 2, 3},
        .axis_labels = {"batch", "channel", "height", "width"}};
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_UINT8, .rank = 2, .shape = {5, 1},
        .axis_labels = {"batch", "index"}};
    int features_index, targets_index;
    assert_int_equal(h5py_writer_add_source(writer, &features, &features_index), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &targets, &targets_index), EXIT_OK);
    uint8_t pixels[30], labels[5];
    for (int index = 0; index < 30; index++)
        pixels[index] = (uint8_t)(index * 7);
    for (int index = 0; index < 5; index++)
        labels[index] = (uint8_t)(9 - index);
    assert_int_equal(h5py_writer_write(writer, features_index, 0, 2, pixels), EXIT_OK);
    assert_int_equal(h5py_writer_write(writer, features_index, 2, 3, pixels + 12), EXIT_OK);
    for (uint64_t row = 0; row < 5; row++)
        assert_int_equal(h5py_writer_write(writer, targets_index, row, 1, labels + row), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "train", NULL, 0, 3), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "test", NULL, 3, 5), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
}

static void write_fixed_file(const char *path)
{
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    fill_fixed_file(writer);
}

static void assert_label(hid_t dataset, unsigned axis, const char *expected)
{
    char label[64] = "";
    assert_true(H5DSget_label(dataset, axis, label, sizeof label) >= 0);
    assert_string_equal(label, expected);
}

static void test_fixed_sources(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "fixed.hdf5");
    write_fixed_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    hid_t features = H5Dopen2(file, "features", H5P_DEFAULT);
    hid_t space = H5Dget_space(features);
    hsize_t dimensions[4];
    assert_int_equal(H5Sget_simple_extent_dims(space, dimensions, NULL), 4);
    assert_int_equal(dimensions[0], 5);
    assert_int_equal(dimensions[1], 1);
    assert_int_equal(dimensions[2], 2);
    assert_int_equal(dimensions[3], 3);
    hid_t type = H5Dget_type(features);
    assert_true(H5Tequal(type, H5T_STD_U8LE) > 0);
    hid_t properties = H5Dget_create_plist(features);
    assert_int_equal(H5Pget_layout(properties), H5D_CONTIGUOUS);
    assert_int_equal(H5Pget_nfilters(properties), 0);
    H5D_fill_time_t fill_time;
    assert_true(H5Pget_fill_time(properties, &fill_time) >= 0);
    assert_int_equal(fill_time, H5D_FILL_TIME_NEVER);
    H5D_alloc_time_t alloc_time;
    assert_true(H5Pget_alloc_time(properties, &alloc_time) >= 0);
    assert_int_equal(alloc_time, H5D_ALLOC_TIME_LATE);
    uint8_t pixels[30];
    assert_true(H5Dread(features, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, pixels) >= 0);
    for (int index = 0; index < 30; index++)
        assert_int_equal(pixels[index], (uint8_t)(index * 7));
    assert_label(features, 0, "batch");
    assert_label(features, 1, "channel");
    assert_label(features, 2, "height");
    assert_label(features, 3, "width");
    hid_t targets = H5Dopen2(file, "targets", H5P_DEFAULT);
    uint8_t labels[5];
    assert_true(H5Dread(targets, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, labels) >= 0);
    for (int index = 0; index < 5; index++)
        assert_int_equal(labels[index], 9 - index);
    assert_label(targets, 1, "index");
    H5Pclose(properties);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(targets);
    H5Dclose(features);
    H5Fclose(file);
}

static void assert_fixed_string(hid_t type, size_t size)
{
    assert_int_equal(H5Tget_class(type), H5T_STRING);
    assert_false(H5Tis_variable_str(type));
    assert_int_equal(H5Tget_size(type), size);
    assert_int_equal(H5Tget_strpad(type), H5T_STR_NULLPAD);
    assert_int_equal(H5Tget_cset(type), H5T_CSET_ASCII);
}

static void assert_bool_enum(hid_t type)
{
    assert_int_equal(H5Tget_class(type), H5T_ENUM);
    hid_t base = H5Tget_super(type);
    assert_true(H5Tequal(base, H5T_STD_I8LE) > 0);
    assert_int_equal(H5Tget_nmembers(type), 2);
    char name[16];
    signed char value = 0;
    assert_true(H5Tenum_nameof(type, &value, name, sizeof name) >= 0);
    assert_string_equal(name, "FALSE");
    value = 1;
    assert_true(H5Tenum_nameof(type, &value, name, sizeof name) >= 0);
    assert_string_equal(name, "TRUE");
    H5Tclose(base);
}

static void assert_member(hid_t compound, unsigned member, const char *name, size_t offset)
{
    char *member_name = H5Tget_member_name(compound, member);
    assert_string_equal(member_name, name);
    H5free_memory(member_name);
    assert_int_equal(H5Tget_member_offset(compound, member), offset);
}

static void test_split_type(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "split-type.hdf5");
    write_fixed_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t attribute = H5Aopen(file, "split", H5P_DEFAULT);
    assert_true(attribute >= 0);
    hid_t type = H5Aget_type(attribute);
    assert_int_equal(H5Tget_class(type), H5T_COMPOUND);
    assert_int_equal(H5Tget_nmembers(type), 7);
    /* split S5, source S8: the same packed offsets numpy gives Fuel's dtype */
    assert_member(type, 0, "split", 0);
    assert_member(type, 1, "source", 5);
    assert_member(type, 2, "start", 13);
    assert_member(type, 3, "stop", 21);
    assert_member(type, 4, "indices", 29);
    assert_member(type, 5, "available", 37);
    assert_member(type, 6, "comment", 38);
    assert_int_equal(H5Tget_size(type), 39);
    hid_t members[7];
    for (unsigned member = 0; member < 7; member++)
        members[member] = H5Tget_member_type(type, member);
    assert_fixed_string(members[0], 5);
    assert_fixed_string(members[1], 8);
    assert_true(H5Tequal(members[2], H5T_STD_I64LE) > 0);
    assert_true(H5Tequal(members[3], H5T_STD_I64LE) > 0);
    assert_int_equal(H5Tget_class(members[4]), H5T_REFERENCE);
    assert_true(H5Tequal(members[4], H5T_STD_REF_OBJ) > 0);
    assert_bool_enum(members[5]);
    assert_fixed_string(members[6], 1);
    for (unsigned member = 0; member < 7; member++)
        H5Tclose(members[member]);
    H5Tclose(type);
    H5Aclose(attribute);
    H5Fclose(file);
}

struct split_row {
    char split[16];
    char source[16];
    int64_t start;
    int64_t stop;
    hobj_ref_t indices;
    signed char available;
    char comment[2];
};

static hid_t split_memory_type(void)
{
    hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(struct split_row));
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, 16);
    H5Tset_strpad(text, H5T_STR_NULLTERM);
    hid_t comment = H5Tcopy(H5T_C_S1);
    H5Tset_size(comment, 2);
    hid_t available = H5Tenum_create(H5T_NATIVE_SCHAR);
    signed char value = 0;
    H5Tenum_insert(available, "FALSE", &value);
    value = 1;
    H5Tenum_insert(available, "TRUE", &value);
    H5Tinsert(type, "split", offsetof(struct split_row, split), text);
    H5Tinsert(type, "source", offsetof(struct split_row, source), text);
    H5Tinsert(type, "start", offsetof(struct split_row, start), H5T_NATIVE_INT64);
    H5Tinsert(type, "stop", offsetof(struct split_row, stop), H5T_NATIVE_INT64);
    H5Tinsert(type, "indices", offsetof(struct split_row, indices), H5T_STD_REF_OBJ);
    H5Tinsert(type, "available", offsetof(struct split_row, available), available);
    H5Tinsert(type, "comment", offsetof(struct split_row, comment), comment);
    H5Tclose(text);
    H5Tclose(comment);
    H5Tclose(available);
    return type;
}

/* Reads the split attribute of PATH into ROWS; returns the row count. */
static size_t read_split_rows(const char *path, struct split_row *rows, size_t capacity)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t attribute = H5Aopen(file, "split", H5P_DEFAULT);
    hid_t space = H5Aget_space(attribute);
    hsize_t count = 0;
    H5Sget_simple_extent_dims(space, &count, NULL);
    assert_true(count <= capacity);
    hid_t type = split_memory_type();
    memset(rows, 0x55, capacity * sizeof *rows);
    assert_true(H5Aread(attribute, type, rows) >= 0);
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(attribute);
    H5Fclose(file);
    return (size_t)count;
}

static void assert_row(const struct split_row *row, const char *split, const char *source,
                       int64_t start, int64_t stop, int available)
{
    assert_string_equal(row->split, split);
    assert_string_equal(row->source, source);
    assert_int_equal(row->start, start);
    assert_int_equal(row->stop, stop);
    assert_int_equal(row->indices, 0);
    assert_int_equal(row->available, available);
    assert_string_equal(row->comment, ".");
}

static void test_split_rows(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "split-rows.hdf5");
    write_fixed_file(path);
    struct split_row rows[8];
    assert_int_equal(read_split_rows(path, rows, 8), 4);
    assert_row(&rows[0], "train", "features", 0, 3, 1);
    assert_row(&rows[1], "train", "targets", 0, 3, 1);
    assert_row(&rows[2], "test", "features", 3, 5, 1);
    assert_row(&rows[3], "test", "targets", 3, 5, 1);
}

static void test_unavailable_pairs_and_source_order(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "unavailable.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration zeta = {
        .name = "zeta", .type = ELEMENT_INT64, .rank = 1, .shape = {4}, .axis_labels = {"batch"}};
    struct h5py_source_declaration alpha = {
        .name = "alpha", .type = ELEMENT_FLOAT64, .rank = 1, .shape = {2},
        .axis_labels = {"batch"}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &zeta, &index), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &alpha, &index), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "valid", "zeta", 1, 4), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "all", "alpha", 0, 2), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "valid", "alpha", 0, 1), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    struct split_row rows[8];
    assert_int_equal(read_split_rows(path, rows, 8), 4);
    assert_row(&rows[0], "valid", "alpha", 0, 1, 1);
    assert_row(&rows[1], "valid", "zeta", 1, 4, 1);
    assert_row(&rows[2], "all", "alpha", 0, 2, 1);
    assert_row(&rows[3], "all", "zeta", 0, 0, 0);
}

static char *read_string_attribute(hid_t file, const char *name)
{
    hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
    assert_true(attribute >= 0);
    hid_t type = H5Aget_type(attribute);
    assert_true(H5Tis_variable_str(type) > 0);
    assert_int_equal(H5Tget_cset(type), H5T_CSET_ASCII);
    assert_int_equal(H5Tget_strpad(type), H5T_STR_NULLTERM);
    hid_t space = H5Aget_space(attribute);
    assert_int_equal(H5Sget_simple_extent_type(space), H5S_SCALAR);
    char *value = NULL;
    assert_true(H5Aread(attribute, type, &value) >= 0);
    char *copy = strdup(value);
    H5free_memory(value);
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attribute);
    return copy;
}

static void assert_string_attribute(hid_t file, const char *name, const char *expected)
{
    char *value = read_string_attribute(file, name);
    assert_string_equal(value, expected);
    free(value);
}

static void test_string_attributes(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "attributes.hdf5");
    write_fixed_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_string_attribute(file, "h5py_interface_version", "0.3");
    assert_string_attribute(file, "fuel_convert_version", "0.1.0");
    assert_string_attribute(file, "fuel_convert_command", "fuel-convert mnist -d raw -o out");
    assert_string_attribute(file, "fuel_provenance", "{\"tool\":\"fuel\"}");
    H5Fclose(file);
}

static void test_provenance_left_out_when_null(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "no-provenance.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_attributes without = {.command = "fuel-convert iris", .version = "0.1.0"};
    assert_int_equal(h5py_writer_finish(writer, &without), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_int_equal(H5Aexists(file, "fuel_provenance"), 0);
    assert_int_equal(H5Aexists(file, "fuel_convert_command"), 1);
    H5Fclose(file);
}

static void test_bool_source(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "bool.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration flags = {
        .name = "features", .type = ELEMENT_BOOL, .rank = 2, .shape = {3, 2},
        .axis_labels = {"batch", "feature"}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &flags, &index), EXIT_OK);
    uint8_t values[6] = {1, 0, 0, 1, 1, 1};
    assert_int_equal(h5py_writer_write(writer, index, 0, 3, values), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "features", H5P_DEFAULT);
    hid_t type = H5Dget_type(dataset);
    assert_bool_enum(type);
    signed char read_back[6];
    assert_true(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, read_back) >= 0);
    for (int position = 0; position < 6; position++)
        assert_int_equal(read_back[position], values[position]);
    H5Tclose(type);
    H5Dclose(dataset);
    H5Fclose(file);
}

/* boxes: uint16 vlen, 3 examples of shape (boxes, 2), written out of order once. */
static void write_variable_file(const char *path)
{
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration boxes = {
        .name = "boxes", .type = ELEMENT_UINT16, .rank = 1, .shape = {3}, .axis_labels = {"batch"},
        .variable_length = true, .example_rank = 2, .shape_labels = {"bounding_box", "height"}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &boxes, &index), EXIT_OK);
    uint16_t first[2] = {11, 12}, second[6] = {21, 22, 23, 24, 25, 26}, third[4] = {31, 32, 33, 34};
    uint16_t first_shape[2] = {1, 2}, second_shape[2] = {3, 2}, third_shape[2] = {2, 2};
    assert_int_equal(h5py_writer_write_variable(writer, index, 0, first, first_shape), EXIT_OK);
    assert_int_equal(h5py_writer_write_variable(writer, index, 2, third, third_shape), EXIT_OK);
    assert_int_equal(h5py_writer_write_variable(writer, index, 1, second, second_shape), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "train", NULL, 0, 2), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "test", NULL, 2, 3), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
}

static herr_t remember_scale(hid_t dataset, unsigned axis, hid_t scale, void *data)
{
    (void)dataset;
    (void)axis;
    char (*names)[32] = data;
    size_t slot = names[0][0] == '\0' ? 0 : 1;
    assert_true(H5DSget_scale_name(scale, names[slot], 32) > 0);
    return 0;
}

static void test_variable_length_values(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "variable.hdf5");
    write_variable_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "boxes", H5P_DEFAULT);
    hid_t type = H5Dget_type(dataset);
    assert_int_equal(H5Tget_class(type), H5T_VLEN);
    hid_t base = H5Tget_super(type);
    assert_true(H5Tequal(base, H5T_STD_U16LE) > 0);
    hid_t memory = H5Tvlen_create(H5T_NATIVE_UINT16);
    hvl_t rows[3];
    assert_true(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    const size_t lengths[3] = {2, 6, 4};
    const uint16_t firsts[3] = {11, 21, 31};
    for (int row = 0; row < 3; row++) {
        assert_int_equal(rows[row].len, lengths[row]);
        for (size_t position = 0; position < lengths[row]; position++)
            assert_int_equal(((uint16_t *)rows[row].p)[position], firsts[row] + position);
    }
    hid_t space = H5Dget_space(dataset);
    H5Dvlen_reclaim(memory, space, H5P_DEFAULT, rows);
    assert_label(dataset, 0, "batch");
    char names[2][32] = {"", ""};
    assert_true(H5DSiterate_scales(dataset, 0, NULL, remember_scale, names) >= 0);
    assert_string_equal(names[0], "shapes");
    assert_string_equal(names[1], "shape_labels");
    H5Sclose(space);
    H5Tclose(memory);
    H5Tclose(base);
    H5Tclose(type);
    H5Dclose(dataset);
    H5Fclose(file);
}

static void test_variable_length_scales(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "scales.hdf5");
    write_variable_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t shapes = H5Dopen2(file, "boxes_shapes", H5P_DEFAULT);
    hid_t shapes_type = H5Dget_type(shapes);
    assert_true(H5Tequal(shapes_type, H5T_STD_U16LE) > 0);
    uint16_t values[6];
    assert_true(H5Dread(shapes, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    const uint16_t expected[6] = {1, 2, 3, 2, 2, 2};
    assert_memory_equal(values, expected, sizeof expected);
    assert_true(H5DSis_scale(shapes) > 0);
    hid_t labels = H5Dopen2(file, "boxes_vlen_axis_labels", H5P_DEFAULT);
    hid_t labels_type = H5Dget_type(labels);
    assert_fixed_string(labels_type, 12);
    char text[24];
    assert_true(H5Dread(labels, labels_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) >= 0);
    assert_memory_equal(text, "bounding_boxheight\0\0\0\0\0\0", 24);
    H5Tclose(labels_type);
    H5Dclose(labels);
    H5Tclose(shapes_type);
    H5Dclose(shapes);
    H5Fclose(file);
}

/* Fuel's Dogs vs Cats layout: int32 shapes and the labels scale named NAME_shapes_labels. */
static void test_int32_shapes_and_labels_name(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "int32_shapes.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration images = {
        .name = "image_features", .type = ELEMENT_UINT8, .rank = 1, .shape = {2},
        .axis_labels = {"batch"}, .variable_length = true, .example_rank = 3,
        .shape_labels = {"channel", "height", "width"}, .int32_shapes = true,
        .shape_labels_dataset = "image_features_shapes_labels"};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &images, &index), EXIT_OK);
    uint8_t pixels[6] = {1, 2, 3, 4, 5, 6};
    /* The second, 300000 bytes, is written straight from the caller's memory. */
    uint16_t first_shape[3] = {3, 2, 1}, second_shape[3] = {3, 100, 1000};
    uint8_t *wide = malloc(300000);
    assert_non_null(wide);
    for (size_t index = 0; index < 300000; index++)
        wide[index] = (uint8_t)(index % 251);
    assert_int_equal(h5py_writer_write_variable(writer, index, 0, pixels, first_shape), EXIT_OK);
    assert_int_equal(h5py_writer_write_variable(writer, index, 1, wide, second_shape), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "train", NULL, 0, 2), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t shapes = H5Dopen2(file, "image_features_shapes", H5P_DEFAULT);
    hid_t shapes_type = H5Dget_type(shapes);
    assert_true(H5Tequal(shapes_type, H5T_STD_I32LE) > 0);
    int32_t values[6];
    assert_true(H5Dread(shapes, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    const int32_t expected[6] = {3, 2, 1, 3, 100, 1000};
    assert_memory_equal(values, expected, sizeof expected);
    hid_t features = H5Dopen2(file, "image_features", H5P_DEFAULT);
    hid_t memory = H5Tvlen_create(H5T_NATIVE_UINT8);
    hvl_t rows[2];
    assert_true(H5Dread(features, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    assert_int_equal(rows[0].len, 6);
    assert_memory_equal(rows[0].p, pixels, 6);
    assert_int_equal(rows[1].len, 300000);
    assert_memory_equal(rows[1].p, wide, 300000);
    hid_t space = H5Dget_space(features);
    H5Dvlen_reclaim(memory, space, H5P_DEFAULT, rows);
    H5Sclose(space);
    H5Tclose(memory);
    H5Dclose(features);
    free(wide);
    assert_true(H5Lexists(file, "image_features_shapes_labels", H5P_DEFAULT) > 0);
    assert_true(H5Lexists(file, "image_features_vlen_axis_labels", H5P_DEFAULT) == 0);
    hid_t labels = H5Dopen2(file, "image_features_shapes_labels", H5P_DEFAULT);
    char name[32];
    assert_true(H5DSget_scale_name(labels, name, sizeof name) > 0);
    assert_string_equal(name, "shape_labels");
    H5Dclose(labels);
    H5Tclose(shapes_type);
    H5Dclose(shapes);
    H5Fclose(file);
}

/* Many one-example calls cross the block limits; every value must land where it belongs. */
static void test_blocks(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "blocks.hdf5");
    enum { EXAMPLES = 10000, ROW = 1000 };
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration rows = {
        .name = "rows", .type = ELEMENT_FLOAT32, .rank = 2, .shape = {EXAMPLES, ROW},
        .axis_labels = {"batch", "feature"}};
    struct h5py_source_declaration lengths = {
        .name = "lengths", .type = ELEMENT_INT64, .rank = 1, .shape = {EXAMPLES},
        .axis_labels = {"batch"}, .variable_length = true, .example_rank = 1,
        .shape_labels = {"item"}};
    int rows_index, lengths_index;
    assert_int_equal(h5py_writer_add_source(writer, &rows, &rows_index), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &lengths, &lengths_index), EXIT_OK);
    float row[ROW];
    int64_t items[8];
    for (uint64_t example = 0; example < EXAMPLES; example++) {
        for (int column = 0; column < ROW; column++)
            row[column] = (float)example + (float)column / 1024.0f;
        assert_int_equal(h5py_writer_write(writer, rows_index, example, 1, row), EXIT_OK);
        uint16_t count = (uint16_t)(example % 8);
        for (int item = 0; item < count; item++)
            items[item] = (int64_t)example * 10 + item;
        assert_int_equal(h5py_writer_write_variable(writer, lengths_index, example, items, &count),
                         EXIT_OK);
    }
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "rows", H5P_DEFAULT);
    float *values = malloc(sizeof(float) * EXAMPLES * ROW);
    assert_true(H5Dread(dataset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    for (uint64_t example = 0; example < EXAMPLES; example += 997)
        for (int column = 0; column < ROW; column += 111)
            assert_true(values[example * ROW + column] == (float)example + (float)column / 1024.0f);
    assert_true(values[(uint64_t)EXAMPLES * ROW - 1] == (float)(EXAMPLES - 1) + 999.0f / 1024.0f);
    free(values);
    H5Dclose(dataset);
    dataset = H5Dopen2(file, "lengths", H5P_DEFAULT);
    hid_t memory = H5Tvlen_create(H5T_NATIVE_INT64);
    hvl_t *sequences = malloc(sizeof(hvl_t) * EXAMPLES);
    assert_true(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, sequences) >= 0);
    for (uint64_t example = 0; example < EXAMPLES; example++) {
        assert_int_equal(sequences[example].len, example % 8);
        for (size_t item = 0; item < sequences[example].len; item++)
            assert_int_equal(((int64_t *)sequences[example].p)[item], example * 10 + item);
    }
    hid_t space = H5Dget_space(dataset);
    H5Dvlen_reclaim(memory, space, H5P_DEFAULT, sequences);
    free(sequences);
    H5Sclose(space);
    H5Tclose(memory);
    H5Dclose(dataset);
    H5Fclose(file);
}

/* Copies one of the files Python Fuel wrote (fixtures/expected) through the writer: every source
   with its labels, values and scales, and every available split row. */
struct copy_context {
    struct h5py_writer *writer;
    hid_t file;
};

static enum element_type element_of(hid_t type)
{
    if (H5Tget_class(type) == H5T_ENUM)
        return ELEMENT_BOOL;
    const struct {
        hid_t stored;
        enum element_type element;
    } known[] = {{H5T_STD_U8LE, ELEMENT_UINT8},     {H5T_STD_U16LE, ELEMENT_UINT16},
                 {H5T_STD_I64LE, ELEMENT_INT64},    {H5T_IEEE_F32LE, ELEMENT_FLOAT32},
                 {H5T_IEEE_F64LE, ELEMENT_FLOAT64}};
    for (size_t index = 0; index < sizeof known / sizeof *known; index++)
        if (H5Tequal(type, known[index].stored) > 0)
            return known[index].element;
    fail_msg("unexpected element type in a reference file");
    return ELEMENT_UINT8;
}

static void read_shape_labels(hid_t file, const char *name, struct h5py_source_declaration *source,
                              char labels[][64])
{
    char scale_name[256];
    snprintf(scale_name, sizeof scale_name, "%s_vlen_axis_labels", name);
    hid_t dataset = H5Dopen2(file, scale_name, H5P_DEFAULT);
    assert_true(dataset >= 0);
    hid_t memory = H5Tcopy(H5T_C_S1);
    H5Tset_size(memory, 64);
    assert_true(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, labels) >= 0);
    for (int axis = 0; axis < source->example_rank; axis++)
        source->shape_labels[axis] = labels[axis];
    H5Tclose(memory);
    H5Dclose(dataset);
}

static void copy_variable(struct copy_context *context, hid_t dataset, const char *name, int index,
                          uint64_t count, int example_rank)
{
    char shapes_name[256];
    snprintf(shapes_name, sizeof shapes_name, "%s_shapes", name);
    hid_t shapes_dataset = H5Dopen2(context->file, shapes_name, H5P_DEFAULT);
    uint16_t *shapes = malloc(count * (size_t)example_rank * sizeof *shapes);
    assert_true(H5Dread(shapes_dataset, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                        shapes) >= 0);
    hid_t stored = H5Dget_type(dataset);
    hid_t memory = H5Tget_native_type(stored, H5T_DIR_ASCEND);
    hvl_t *rows = malloc(count * sizeof *rows);
    assert_true(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    for (uint64_t example = 0; example < count; example++)
        assert_int_equal(h5py_writer_write_variable(context->writer, index, example,
                                                    rows[example].p,
                                                    shapes + example * (size_t)example_rank),
                         EXIT_OK);
    hid_t space = H5Dget_space(dataset);
    H5Dvlen_reclaim(memory, space, H5P_DEFAULT, rows);
    H5Sclose(space);
    free(rows);
    free(shapes);
    H5Tclose(memory);
    H5Tclose(stored);
    H5Dclose(shapes_dataset);
}

static void copy_fixed(hid_t dataset, struct h5py_writer *writer, int index,
                       const struct h5py_source_declaration *source)
{
    size_t bytes = element_size(source->type);
    for (int axis = 0; axis < source->rank; axis++)
        bytes *= source->shape[axis];
    void *values = malloc(bytes + 1);
    hid_t stored = H5Dget_type(dataset);
    hid_t memory = H5Tget_native_type(stored, H5T_DIR_ASCEND);
    assert_true(H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    assert_int_equal(h5py_writer_write(writer, index, 0, source->shape[0], values), EXIT_OK);
    H5Tclose(memory);
    H5Tclose(stored);
    free(values);
}

static herr_t copy_source(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    struct copy_context *context = data;
    hid_t dataset = H5Dopen2(group, name, H5P_DEFAULT);
    assert_true(dataset >= 0);
    if (H5DSis_scale(dataset) > 0) {
        H5Dclose(dataset);
        return 0;
    }
    struct h5py_source_declaration source = {.name = name};
    hid_t stored = H5Dget_type(dataset);
    source.variable_length = H5Tget_class(stored) == H5T_VLEN;
    hid_t element = source.variable_length ? H5Tget_super(stored) : H5Tcopy(stored);
    source.type = element_of(element);
    hid_t space = H5Dget_space(dataset);
    hsize_t dimensions[H5PY_MAX_RANK];
    source.rank = H5Sget_simple_extent_dims(space, dimensions, NULL);
    char axis_labels[H5PY_MAX_RANK][64], shape_labels[H5PY_MAX_RANK][64];
    for (int axis = 0; axis < source.rank; axis++) {
        source.shape[axis] = dimensions[axis];
        assert_true(H5DSget_label(dataset, (unsigned)axis, axis_labels[axis], 64) >= 0);
        source.axis_labels[axis] = axis_labels[axis];
    }
    if (source.variable_length) {
        char shapes_name[256];
        snprintf(shapes_name, sizeof shapes_name, "%s_shapes", name);
        hid_t shapes = H5Dopen2(context->file, shapes_name, H5P_DEFAULT);
        hid_t shapes_space = H5Dget_space(shapes);
        hsize_t shapes_dimensions[2];
        H5Sget_simple_extent_dims(shapes_space, shapes_dimensions, NULL);
        source.example_rank = (int)shapes_dimensions[1];
        H5Sclose(shapes_space);
        H5Dclose(shapes);
        read_shape_labels(context->file, name, &source, shape_labels);
    }
    int index;
    assert_int_equal(h5py_writer_add_source(context->writer, &source, &index), EXIT_OK);
    if (source.variable_length)
        copy_variable(context, dataset, name, index, source.shape[0], source.example_rank);
    else
        copy_fixed(dataset, context->writer, index, &source);
    H5Sclose(space);
    H5Tclose(element);
    H5Tclose(stored);
    H5Dclose(dataset);
    return 0;
}

static void copy_splits(struct copy_context *context)
{
    struct split_row rows[64];
    hid_t attribute = H5Aopen(context->file, "split", H5P_DEFAULT);
    hid_t space = H5Aget_space(attribute);
    hsize_t count = 0;
    H5Sget_simple_extent_dims(space, &count, NULL);
    assert_true(count <= 64);
    hid_t type = split_memory_type();
    assert_true(H5Aread(attribute, type, rows) >= 0);
    for (hsize_t row = 0; row < count; row++)
        if (rows[row].available)
            assert_int_equal(h5py_writer_add_split(context->writer, rows[row].split,
                                                   rows[row].source, (uint64_t)rows[row].start,
                                                   (uint64_t)rows[row].stop),
                             EXIT_OK);
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(attribute);
}

static void copy_reference(const char *expected, const char *actual)
{
    struct copy_context context;
    context.file = H5Fopen(expected, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (context.file < 0)
        fail_msg("cannot open the reference file %s", expected);
    assert_int_equal(h5py_writer_create(&context.writer, actual), EXIT_OK);
    assert_true(H5Literate(context.file, H5_INDEX_NAME, H5_ITER_INC, NULL, copy_source,
                           &context) >= 0);
    copy_splits(&context);
    H5Fclose(context.file);
    assert_int_equal(h5py_writer_finish(context.writer, &attributes), EXIT_OK);
}

/* Every file Python Fuel wrote, rewritten through the writer, is the same as H5PYDataset sees it. */
static void test_matches_fuel_references(void **state)
{
    (void)state;
    const char *fixtures = test_data_directory();
    const char *names[] = {"mnist.hdf5",   "mnist_float32.hdf5",  "binarized_mnist.hdf5",
                           "iris.hdf5",    "cifar10.hdf5",        "cifar100.hdf5",
                           "svhn_format_2.hdf5", "svhn_format_1.hdf5"};
    for (size_t index = 0; index < sizeof names / sizeof *names; index++) {
        char expected[512], actual[512], command[1200];
        snprintf(expected, sizeof expected, "%s/expected/%s", fixtures, names[index]);
        path_in_directory(actual, sizeof actual, names[index]);
        copy_reference(expected, actual);
        snprintf(command, sizeof command,
                 "/usr/bin/python3 tests/helpers/compare_hdf5.py %s %s", actual, expected);
        if (system(command) != 0)
            fail_msg("%s differs from Fuel's %s", actual, expected);
    }
}

static void assert_same_bytes(const char *first_path, const char *second_path)
{
    FILE *first = fopen(first_path, "rb");
    FILE *second = fopen(second_path, "rb");
    assert_non_null(first);
    assert_non_null(second);
    int left, right;
    long position = 0;
    do {
        left = fgetc(first);
        right = fgetc(second);
        if (left != right)
            fail_msg("%s and %s differ at byte %ld", first_path, second_path, position);
        position++;
    } while (left != EOF);
    fclose(first);
    fclose(second);
}

/* Object times would differ between runs a second apart; the writer turns them off. */
static void test_byte_identical_rewrite(void **state)
{
    (void)state;
    char first[256], second[256], third[256], fourth[256];
    path_in_directory(first, sizeof first, "identical-1.hdf5");
    path_in_directory(second, sizeof second, "identical-2.hdf5");
    path_in_directory(third, sizeof third, "identical-3.hdf5");
    path_in_directory(fourth, sizeof fourth, "identical-4.hdf5");
    write_fixed_file(first);
    write_variable_file(third);
    sleep(2);
    write_fixed_file(second);
    write_variable_file(fourth);
    assert_same_bytes(first, second);
    assert_same_bytes(third, fourth);
}

/* A restarted writer's file holds only what came after: byte for byte a file written afresh. */
static void test_restart_empties_the_file(void **state)
{
    (void)state;
    char fresh[256], restarted[256];
    path_in_directory(fresh, sizeof fresh, "restart-fresh.hdf5");
    path_in_directory(restarted, sizeof restarted, "restart-again.hdf5");
    write_fixed_file(fresh);
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, restarted), EXIT_OK);
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 2, .shape = {9, 4},
        .axis_labels = {"batch", "feature"}};
    int index;
    uint8_t rows[36] = {1, 2, 3};
    assert_int_equal(h5py_writer_add_source(writer, &features, &index), EXIT_OK);
    assert_int_equal(h5py_writer_write(writer, index, 0, 9, rows), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "all", NULL, 0, 9), EXIT_OK);
    assert_int_equal(h5py_writer_restart(writer), EXIT_OK);
    assert_false(h5py_writer_has_source(writer, "features"));
    fill_fixed_file(writer);
    assert_same_bytes(fresh, restarted);
}

static void expect_error(int result, int code, const char *fragment)
{
    assert_int_equal(result, code);
    assert_int_equal(error_code(), code);
    if (strstr(error_message(), fragment) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", error_message(), fragment);
}

/* Chapter 4's extensions: indices datasets referenced by split rows (start = stop = -1), comments
   (the field as wide as the longest), auxiliary datasets left out of the rows. */
static void write_indexed_file(const char *path)
{
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration values = {
        .name = "values", .type = ELEMENT_INT16, .rank = 2, .shape = {6, 2},
        .axis_labels = {"batch", "feature"}};
    struct h5py_source_declaration train = {
        .name = "train_indices", .type = ELEMENT_INT64, .rank = 1, .shape = {3}, .auxiliary = true};
    struct h5py_source_declaration test = train;
    test.name = "test_indices";
    int source, train_index, test_index;
    assert_int_equal(h5py_writer_add_source(writer, &values, &source), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &train, &train_index), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &test, &test_index), EXIT_OK);
    int16_t data[12];
    for (int index = 0; index < 12; index++)
        data[index] = (int16_t)(index * 100 - 300);
    const int64_t even[3] = {0, 2, 4}, odd[3] = {1, 3, 5};
    assert_int_equal(h5py_writer_write(writer, source, 0, 6, data), EXIT_OK);
    assert_int_equal(h5py_writer_write(writer, train_index, 0, 3, even), EXIT_OK);
    assert_int_equal(h5py_writer_write(writer, test_index, 0, 3, odd), EXIT_OK);
    assert_int_equal(h5py_writer_add_split_indices(writer, "train", NULL, train_index), EXIT_OK);
    assert_int_equal(h5py_writer_add_split_indices(writer, "test", "values", test_index), EXIT_OK);
    assert_int_equal(h5py_writer_comment_split(writer, "test", NULL, "held out"), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
}

struct commented_row {
    char split[8];
    char source[8];
    int64_t start, stop;
    hobj_ref_t indices;
    signed char available;
    char comment[9];
};

static hid_t commented_memory_type(void)
{
    hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(struct commented_row));
    hid_t text = H5Tcopy(H5T_C_S1), comment = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, 8);
    H5Tset_size(comment, 9);
    hid_t available = H5Tenum_create(H5T_NATIVE_SCHAR);
    signed char value = 0;
    H5Tenum_insert(available, "FALSE", &value);
    value = 1;
    H5Tenum_insert(available, "TRUE", &value);
    H5Tinsert(type, "split", offsetof(struct commented_row, split), text);
    H5Tinsert(type, "source", offsetof(struct commented_row, source), text);
    H5Tinsert(type, "start", offsetof(struct commented_row, start), H5T_NATIVE_INT64);
    H5Tinsert(type, "stop", offsetof(struct commented_row, stop), H5T_NATIVE_INT64);
    H5Tinsert(type, "indices", offsetof(struct commented_row, indices), H5T_STD_REF_OBJ);
    H5Tinsert(type, "available", offsetof(struct commented_row, available), available);
    H5Tinsert(type, "comment", offsetof(struct commented_row, comment), comment);
    H5Tclose(text);
    H5Tclose(comment);
    H5Tclose(available);
    return type;
}

/* The values of the indices dataset ROW references, which must be NAME. */
static void assert_indices(hid_t file, const struct commented_row *row, const char *name,
                           const int64_t expected[3])
{
    hid_t dataset = H5Rdereference2(file, H5P_DEFAULT, H5R_OBJECT, &row->indices);
    assert_true(dataset >= 0);
    char path[64];
    assert_true(H5Iget_name(dataset, path, sizeof path) > 0);
    assert_string_equal(path + 1, name);
    int64_t values[3];
    assert_true(H5Dread(dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    assert_memory_equal(values, expected, sizeof values);
    H5Dclose(dataset);
}

static void test_indices_and_comments(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "indexed.hdf5");
    write_indexed_file(path);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t attribute = H5Aopen(file, "split", H5P_DEFAULT);
    hid_t stored = H5Aget_type(attribute);
    hid_t space = H5Aget_space(attribute);
    assert_int_equal(H5Sget_simple_extent_npoints(space), 2);
    hid_t comment_type = H5Tget_member_type(stored, 6);
    assert_fixed_string(comment_type, 8);
    assert_member(stored, 6, "comment", 5 + 6 + 16 + 8 + 1);
    struct commented_row rows[2];
    hid_t memory = commented_memory_type();
    assert_true(H5Aread(attribute, memory, rows) >= 0);
    assert_string_equal(rows[0].split, "train");
    assert_string_equal(rows[0].source, "values");
    assert_int_equal(rows[0].start, -1);
    assert_int_equal(rows[0].stop, -1);
    assert_int_equal(rows[0].available, 1);
    assert_string_equal(rows[0].comment, ".");
    assert_string_equal(rows[1].split, "test");
    assert_string_equal(rows[1].comment, "held out");
    const int64_t even[3] = {0, 2, 4}, odd[3] = {1, 3, 5};
    assert_indices(file, &rows[0], "train_indices", even);
    assert_indices(file, &rows[1], "test_indices", odd);
    hid_t indices = H5Dopen2(file, "train_indices", H5P_DEFAULT);
    hid_t indices_type = H5Dget_type(indices);
    assert_true(H5Tequal(indices_type, H5T_STD_I64LE) > 0);
    assert_int_equal(H5Aexists(indices, "DIMENSION_LABELS"), 0);
    H5Tclose(indices_type);
    H5Dclose(indices);
    H5Tclose(memory);
    H5Tclose(comment_type);
    H5Sclose(space);
    H5Tclose(stored);
    H5Aclose(attribute);
    H5Fclose(file);
}

/* A ragged source with the scales chapter 4 writes: NAME_shapes int32 (sides past 65535 kept),
   NAME_shape_labels. */
static void test_chapter_scales(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "chapter-scales.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration ragged = {
        .name = "sequence", .type = ELEMENT_UINT8, .rank = 1, .shape = {2},
        .axis_labels = {"batch"}, .variable_length = true, .example_rank = 2,
        .shape_labels = {"time", "channel"}, .int32_shapes = true,
        .shape_labels_dataset = "sequence_shape_labels"};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &ragged, &index), EXIT_OK);
    static uint8_t long_data[70000];
    long_data[69999] = 9;
    const uint32_t long_shape[2] = {70000, 1}, short_shape[2] = {1, 3};
    const uint8_t short_data[3] = {1, 2, 3};
    assert_int_equal(h5py_writer_write_variable_wide(writer, index, 0, long_data, long_shape),
                     EXIT_OK);
    assert_int_equal(h5py_writer_write_variable_wide(writer, index, 1, short_data, short_shape),
                     EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "all", NULL, 0, 2), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t shapes = H5Dopen2(file, "sequence_shapes", H5P_DEFAULT);
    hid_t shapes_type = H5Dget_type(shapes);
    assert_true(H5Tequal(shapes_type, H5T_STD_I32LE) > 0);
    int32_t values[4];
    assert_true(H5Dread(shapes, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    const int32_t expected[4] = {70000, 1, 1, 3};
    assert_memory_equal(values, expected, sizeof values);
    hid_t labels = H5Dopen2(file, "sequence_shape_labels", H5P_DEFAULT);
    assert_true(labels >= 0);
    assert_int_equal(H5Lexists(file, "sequence_vlen_axis_labels", H5P_DEFAULT), 0);
    H5Dclose(labels);
    H5Tclose(shapes_type);
    H5Dclose(shapes);
    H5Fclose(file);
}

static void test_invalid_extension_calls(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "invalid-extensions.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration ragged = {
        .name = "ragged", .type = ELEMENT_UINT8, .rank = 1, .shape = {1},
        .axis_labels = {"batch"}, .variable_length = true, .example_rank = 1,
        .shape_labels = {"x"}};
    struct h5py_source_declaration floats = {
        .name = "floats", .type = ELEMENT_FLOAT32, .rank = 1, .shape = {1}, .auxiliary = true};
    struct h5py_source_declaration auxiliary_ragged = ragged;
    auxiliary_ragged.name = "other";
    auxiliary_ragged.auxiliary = true;
    int source, float_index, index;
    assert_int_equal(h5py_writer_add_source(writer, &ragged, &source), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &floats, &float_index), EXIT_OK);
    expect_error(h5py_writer_add_source(writer, &auxiliary_ragged, &index), EXIT_OTHER,
                 "an auxiliary dataset has fixed shape");
    const uint32_t wide[1] = {65536};
    uint8_t data[1] = {0};
    expect_error(h5py_writer_write_variable_wide(writer, source, 0, data, wide), EXIT_OTHER,
                 "example 0: shape too large");
    expect_error(h5py_writer_add_split_indices(writer, "train", NULL, source), EXIT_OTHER,
                 "no auxiliary dataset number 0");
    expect_error(h5py_writer_add_split_indices(writer, "train", NULL, float_index), EXIT_OTHER,
                 "floats: indices must be a 1-D integer dataset");
    expect_error(h5py_writer_add_split(writer, "train", "floats", 0, 1), EXIT_OTHER,
                 "unknown source floats");
    expect_error(h5py_writer_comment_split(writer, "train", NULL, "x"), EXIT_OTHER,
                 "comment of undeclared split train");
    assert_int_equal(h5py_writer_add_split(writer, "train", NULL, 0, 1), EXIT_OK);
    expect_error(h5py_writer_comment_split(writer, "train", NULL, ""), EXIT_OTHER, "empty comment");
    h5py_writer_discard(writer);
}

/* h5py_writer_copy: rows copied from a file in the kernel (2 MiB, past the threshold) and through
   HDF5 (a few rows), the rest written as usual afterwards without a stale sieve buffer over the
   copy, an input that ends early refused. */
static void test_copy_rows(void **state)
{
    (void)state;
    char path[256], input_path[256];
    path_in_directory(path, sizeof path, "copied.hdf5");
    path_in_directory(input_path, sizeof input_path, "rows.bin");
    enum { ROWS = 4096, ROW_BYTES = 512, HEADER = 100 };
    static unsigned char bytes[HEADER + ROWS * ROW_BYTES];
    for (size_t index = 0; index < sizeof bytes; index++)
        bytes[index] = (unsigned char)(index * 31 + index / 977);
    FILE *stream = fopen(input_path, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(bytes, 1, sizeof bytes, stream), sizeof bytes);
    fclose(stream);
    int input = open(input_path, O_RDONLY);
    assert_true(input >= 0);
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration rows = {
        .name = "rows", .type = ELEMENT_UINT8, .rank = 2, .shape = {ROWS + 8, ROW_BYTES}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &rows, &index), EXIT_OK);
    /* Rows 0..3000 in the kernel, 3000..3004 through HDF5, the rest row by row as usual. */
    assert_int_equal(h5py_writer_copy(writer, index, 0, 3000, input, HEADER), EXIT_OK);
    assert_int_equal(h5py_writer_copy(writer, index, 3000, 4, input, HEADER + 3000 * ROW_BYTES),
                     EXIT_OK);
    for (uint64_t row = 3004; row < ROWS; row++)
        assert_int_equal(h5py_writer_write(writer, index, row, 1, bytes + HEADER + row * ROW_BYTES),
                         EXIT_OK);
    expect_error(h5py_writer_copy(writer, index, ROWS, 8, input, HEADER + (ROWS - 2) * ROW_BYTES),
                 EXIT_CORRUPT_INPUT, "the input ends before its rows do");
    expect_error(h5py_writer_copy(writer, index, ROWS, 9, input, 0), EXIT_OTHER,
                 "cannot copy rows 4096..4105");
    static unsigned char zeros[8 * ROW_BYTES];
    assert_int_equal(h5py_writer_write(writer, index, ROWS, 8, zeros), EXIT_OK);
    assert_int_equal(h5py_writer_add_split(writer, "all", NULL, 0, ROWS), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    close(input);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "rows", H5P_DEFAULT);
    static unsigned char read[(ROWS + 8) * ROW_BYTES];
    assert_true(H5Dread(dataset, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, read) >= 0);
    assert_memory_equal(read, bytes + HEADER, ROWS * ROW_BYTES);
    assert_memory_equal(read + ROWS * ROW_BYTES, zeros, sizeof zeros);
    H5Dclose(dataset);
    H5Fclose(file);
}

static void test_invalid_calls(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "invalid.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration deep = {
        .name = "deep", .type = ELEMENT_UINT8, .rank = H5PY_MAX_RANK + 1};
    int index;
    expect_error(h5py_writer_add_source(writer, &deep, &index), EXIT_OTHER, "rank 9");
    struct h5py_source_declaration huge = {
        .name = "huge", .type = ELEMENT_FLOAT64, .rank = 3,
        .shape = {1, UINT64_C(1) << 40, UINT64_C(1) << 40}};
    expect_error(h5py_writer_add_source(writer, &huge, &index), EXIT_OTHER, "huge: shape too large");
    struct h5py_source_declaration nested = {
        .name = "group/features", .type = ELEMENT_UINT8, .rank = 1, .shape = {1}};
    expect_error(h5py_writer_add_source(writer, &nested, &index), EXIT_OTHER, "invalid source name");
    struct h5py_source_declaration fixed = {
        .name = "fixed", .type = ELEMENT_UINT8, .rank = 2, .shape = {4, 3},
        .axis_labels = {"batch", "x"}};
    assert_int_equal(h5py_writer_add_source(writer, &fixed, &index), EXIT_OK);
    expect_error(h5py_writer_add_source(writer, &fixed, &index), EXIT_OTHER, "declared twice");
    uint8_t data[15] = {0};
    expect_error(h5py_writer_write(writer, index + 1, 0, 1, data), EXIT_OTHER, "no source number 1");
    expect_error(h5py_writer_write(writer, -1, 0, 1, data), EXIT_OTHER, "no source number -1");
    expect_error(h5py_writer_write(writer, index, 3, 2, data), EXIT_OTHER, "rows 3..5 outside 0..4");
    expect_error(h5py_writer_write(writer, index, UINT64_MAX, 2, data), EXIT_OTHER, "outside");
    uint16_t shape[1] = {1};
    expect_error(h5py_writer_write_variable(writer, index, 0, data, shape), EXIT_OTHER,
                 "not variable-length");
    expect_error(h5py_writer_add_split(writer, "train", "missing", 0, 1), EXIT_OTHER,
                 "unknown source missing");
    expect_error(h5py_writer_add_split(writer, "train", "fixed", 2, 5), EXIT_OTHER,
                 "2..5 outside 0..4");
    expect_error(h5py_writer_add_split(writer, "train", "fixed", 3, 2), EXIT_OTHER, "outside");
    assert_int_equal(h5py_writer_add_split(writer, "train", "fixed", 0, 4), EXIT_OK);
    expect_error(h5py_writer_add_split(writer, "train", NULL, 0, 4), EXIT_OTHER, "declared twice");
    h5py_writer_discard(writer);
}

static void test_invalid_variable_calls(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "invalid-variable.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration wide = {
        .name = "wide", .type = ELEMENT_UINT8, .rank = 2, .shape = {2, 2}, .variable_length = true,
        .example_rank = 1};
    int index;
    expect_error(h5py_writer_add_source(writer, &wide, &index), EXIT_OTHER, "rank 1");
    struct h5py_source_declaration deep = {
        .name = "deep", .type = ELEMENT_UINT8, .rank = 1, .shape = {2}, .variable_length = true,
        .example_rank = H5PY_MAX_RANK + 1};
    expect_error(h5py_writer_add_source(writer, &deep, &index), EXIT_OTHER, "example rank");
    struct h5py_source_declaration good = {
        .name = "good", .type = ELEMENT_UINT8, .rank = 1, .shape = {2}, .axis_labels = {"batch"},
        .variable_length = true, .example_rank = 1, .shape_labels = {"x"}};
    assert_int_equal(h5py_writer_add_source(writer, &good, &index), EXIT_OK);
    uint8_t data[1] = {0};
    uint16_t shape[1] = {1};
    expect_error(h5py_writer_write_variable(writer, index, 2, data, shape), EXIT_OTHER,
                 "example 2 outside 0..2");
    /* HDF5 itself refuses: good_shapes is taken by the scale of good. */
    struct h5py_source_declaration clash = {
        .name = "good_shapes", .type = ELEMENT_UINT8, .rank = 1, .shape = {2}};
    char expected[512];
    snprintf(expected, sizeof expected, "cannot write: %s: good_shapes: name already exists", path);
    expect_error(h5py_writer_add_source(writer, &clash, &index), EXIT_WRITE, expected);
    expect_error(h5py_writer_write(writer, index, 0, 1, data), EXIT_OTHER, "is variable-length");
    h5py_writer_discard(writer);
}

static void test_create_in_missing_directory(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "missing/out.hdf5");
    struct h5py_writer *writer = NULL;
    expect_error(h5py_writer_create(&writer, path), EXIT_WRITE, "cannot write: ");
    assert_non_null(strstr(error_message(), path));
    assert_null(writer);
}

/* /dev/full accepts the open and fails every write with ENOSPC. */
static void test_disk_full(void **state)
{
    (void)state;
    struct h5py_writer *writer;
    int result = h5py_writer_create(&writer, "/dev/full");
    if (result == EXIT_OK) {
        struct h5py_source_declaration big = {
            .name = "big", .type = ELEMENT_UINT8, .rank = 2, .shape = {64, 1 << 20},
            .axis_labels = {"batch", "x"}};
        int index;
        result = h5py_writer_add_source(writer, &big, &index);
        static uint8_t rows[4 << 20];
        for (uint64_t first = 0; result == EXIT_OK && first < 64; first += 4)
            result = h5py_writer_write(writer, index, first, 4, rows);
        if (result == EXIT_OK)
            result = h5py_writer_finish(writer, &attributes);
        else
            h5py_writer_discard(writer);
    }
    expect_error(result, EXIT_WRITE, "cannot write: /dev/full");
    if (strstr(error_message(), "No space left on device") == NULL)
        fail_msg("message \"%s\" does not name ENOSPC", error_message());
}

/* A file-size limit makes writes fail midway (EFBIG), in buffered blocks and at finish alike. */
static int write_past_size_limit(const char *path, uint64_t rows_per_call)
{
    struct h5py_writer *writer;
    int result = h5py_writer_create(&writer, path);
    assert_int_equal(result, EXIT_OK);
    struct h5py_source_declaration rows = {
        .name = "rows", .type = ELEMENT_UINT8, .rank = 2, .shape = {4096, 4096},
        .axis_labels = {"batch", "x"}};
    int index;
    assert_int_equal(h5py_writer_add_source(writer, &rows, &index), EXIT_OK);
    static uint8_t block[1024 * 4096];
    for (uint64_t first = 0; result == EXIT_OK && first < 4096; first += rows_per_call)
        result = h5py_writer_write(writer, index, first, rows_per_call, block);
    if (result == EXIT_OK)
        return h5py_writer_finish(writer, &attributes);
    h5py_writer_discard(writer);
    return result;
}

static void test_write_failure_midway(void **state)
{
    (void)state;
    struct rlimit previous, limited;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &previous), 0);
    limited = previous;
    limited.rlim_cur = 3 << 20;
    void (*previous_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &limited), 0);
    char path[256];
    path_in_directory(path, sizeof path, "limited.hdf5");
    int small_rows = write_past_size_limit(path, 1);
    char small_message[2048];
    snprintf(small_message, sizeof small_message, "%s", error_message());
    int large_rows = write_past_size_limit(path, 1024);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &previous), 0);
    signal(SIGXFSZ, previous_handler);
    char expected[512];
    snprintf(expected, sizeof expected, "cannot write: %s: File too large", path);
    assert_int_equal(small_rows, EXIT_WRITE);
    assert_string_equal(small_message, expected);
    expect_error(large_rows, EXIT_WRITE, expected);
}

/* h5py reads a writer-made file as H5PYDataset expects (types, split fields, labels, scales). */
static void test_h5py_reads_it(void **state)
{
    (void)state;
    char fixed[256], variable[256], command[1024];
    path_in_directory(fixed, sizeof fixed, "h5py-fixed.hdf5");
    path_in_directory(variable, sizeof variable, "h5py-variable.hdf5");
    write_fixed_file(fixed);
    write_variable_file(variable);
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/check_h5py.py %s %s", fixed,
             variable);
    assert_int_equal(system(command), 0);
}

/* ImageNet's layout: encoded_images uint8 vlen without shapes, targets int16 (N,1), filenames S32
   (N,1), written at permuted places in batches; h5py reads each back where it was placed. */
static void write_permuted_file(const char *path)
{
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration images = {
        .name = "encoded_images", .type = ELEMENT_UINT8, .rank = 1, .shape = {5},
        .variable_length = true, .example_rank = 0};
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_INT16, .rank = 2, .shape = {5, 1}};
    struct h5py_source_declaration names = {
        .name = "filenames", .type = ELEMENT_STRING, .string_length = 32, .rank = 2,
        .shape = {5, 1}};
    int image_source, target_source, name_source;
    assert_int_equal(h5py_writer_add_source(writer, &images, &image_source), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &targets, &target_source), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &names, &name_source), EXIT_OK);
    static const uint64_t places[2][3] = {{3, 0, 4}, {1, 2, 0}};
    static const size_t batch_sizes[2] = {3, 2};
    uint64_t arrival = 0;
    for (int batch = 0; batch < 2; batch++) {
        unsigned char bytes[3][8];
        const void *data[3];
        size_t lengths[3];
        int16_t labels[3];
        char filenames[3][32];
        memset(filenames, 0, sizeof filenames);
        for (size_t example = 0; example < batch_sizes[batch]; example++, arrival++) {
            lengths[example] = (size_t)arrival + 1;
            for (size_t byte = 0; byte < lengths[example]; byte++)
                bytes[example][byte] = (unsigned char)(250 + arrival - byte);
            data[example] = bytes[example];
            labels[example] = (int16_t)(-300 + 200 * (int)arrival);
            snprintf(filenames[example], 32, "n%07llu_%llu.JPEG", (unsigned long long)arrival,
                     (unsigned long long)arrival * 11);
        }
        size_t count = batch_sizes[batch];
        assert_int_equal(h5py_writer_write_sequences_at(writer, image_source, places[batch],
                                                        count, data, lengths), EXIT_OK);
        assert_int_equal(h5py_writer_write_rows_at(writer, target_source, places[batch], count,
                                                   labels), EXIT_OK);
        assert_int_equal(h5py_writer_write_rows_at(writer, name_source, places[batch], count,
                                                   filenames), EXIT_OK);
    }
    assert_int_equal(h5py_writer_add_split(writer, "train", NULL, 0, 5), EXIT_OK);
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
}

static void test_permuted_int16_strings_and_bytes(void **state)
{
    (void)state;
    char path[256], command[2048];
    path_in_directory(path, sizeof path, "permuted.hdf5");
    write_permuted_file(path);
    /* A variable-length source without a shapes scale passes the checks: 1-D per example. */
    assert_true(h5py_file_passes_check(path));
    /* Arrival A (0..4) went to place PLACES[A] = 3 0 4 1 2; it holds A+1 bytes 250+A, 249+A, ... */
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import h5py, numpy, sys\n"
             "f = h5py.File(sys.argv[1], \"r\")\n"
             "places = [3, 0, 4, 1, 2]\n"
             "images, targets, names = f[\"encoded_images\"], f[\"targets\"], f[\"filenames\"]\n"
             "assert images.dtype.metadata[\"vlen\"] == numpy.dtype(\"uint8\"), images.dtype\n"
             "assert targets.dtype == numpy.dtype(\"int16\") and targets.shape == (5, 1)\n"
             "assert names.dtype == numpy.dtype(\"S32\") and names.shape == (5, 1)\n"
             "assert not images.dims[0].keys() and \"encoded_images_shapes\" not in f\n"
             "for arrival, place in enumerate(places):\n"
             "    expected = [250 + arrival - b for b in range(arrival + 1)]\n"
             "    assert list(images[place]) == expected, (place, images[place])\n"
             "    assert targets[place, 0] == -300 + 200 * arrival, targets[place]\n"
             "    assert names[place, 0] == b\"n%%07d_%%d.JPEG\" %% (arrival, arrival * 11)\n"
             "' %s",
             path);
    assert_int_equal(system(command), 0);
}

static void test_scattered_calls_refused(void **state)
{
    (void)state;
    char path[256];
    path_in_directory(path, sizeof path, "scattered-refused.hdf5");
    struct h5py_writer *writer;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    struct h5py_source_declaration images = {
        .name = "encoded_images", .type = ELEMENT_UINT8, .rank = 1, .shape = {2},
        .variable_length = true, .example_rank = 0};
    struct h5py_source_declaration targets = {
        .name = "targets", .type = ELEMENT_INT16, .rank = 2, .shape = {2, 1}};
    int image_source, target_source;
    assert_int_equal(h5py_writer_add_source(writer, &images, &image_source), EXIT_OK);
    assert_int_equal(h5py_writer_add_source(writer, &targets, &target_source), EXIT_OK);
    const uint64_t outside[1] = {2};
    int16_t label = 1;
    const void *data[1] = {&label};
    size_t lengths[1] = {1};
    expect_error(h5py_writer_write_rows_at(writer, target_source, outside, 1, &label), EXIT_OTHER,
                 "targets: example 2 outside 0..2");
    expect_error(h5py_writer_write_rows_at(writer, image_source, outside, 1, &label), EXIT_OTHER,
                 "encoded_images is variable-length");
    expect_error(h5py_writer_write_sequences_at(writer, target_source, outside, 1, data, lengths),
                 EXIT_OTHER, "targets is not variable-length without shapes");
    uint16_t shape[1] = {1};
    expect_error(h5py_writer_write_variable(writer, image_source, 0, &label, shape), EXIT_OTHER,
                 "encoded_images is not variable-length with shapes");
    h5py_writer_discard(writer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_sources),
        cmocka_unit_test(test_split_type),
        cmocka_unit_test(test_split_rows),
        cmocka_unit_test(test_unavailable_pairs_and_source_order),
        cmocka_unit_test(test_string_attributes),
        cmocka_unit_test(test_provenance_left_out_when_null),
        cmocka_unit_test(test_bool_source),
        cmocka_unit_test(test_variable_length_values),
        cmocka_unit_test(test_variable_length_scales),
        cmocka_unit_test(test_int32_shapes_and_labels_name),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_matches_fuel_references),
        cmocka_unit_test(test_byte_identical_rewrite),
        cmocka_unit_test(test_restart_empties_the_file),
        cmocka_unit_test(test_indices_and_comments),
        cmocka_unit_test(test_chapter_scales),
        cmocka_unit_test(test_invalid_extension_calls),
        cmocka_unit_test(test_copy_rows),
        cmocka_unit_test(test_invalid_calls),
        cmocka_unit_test(test_invalid_variable_calls),
        cmocka_unit_test(test_create_in_missing_directory),
        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_write_failure_midway),
        cmocka_unit_test(test_h5py_reads_it),
        cmocka_unit_test(test_permuted_int16_strings_and_bytes),
        cmocka_unit_test(test_scattered_calls_refused),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
