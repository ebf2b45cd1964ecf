/* Unit tests for common/matlab73.c on MATLAB 7.3 files built here in memory, laid out as SVHN's
   digitStruct.mat: a 512-byte user block, struct fields inline or as references to 1x1 cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/matlab/matlab73_read.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

struct image {
    uint8_t *bytes;
    size_t size;
};

static hid_t create_file(void)
{
    hid_t creation = H5Pcreate(H5P_FILE_CREATE);
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    assert_true(H5Pset_userblock(creation, 512) >= 0);
    assert_true(H5Pset_fapl_core(access, 4096, 0) >= 0);
    hid_t file = H5Fcreate("digitStruct.mat", H5F_ACC_TRUNC, creation, access);
    assert_true(file >= 0);
    H5Pclose(creation);
    H5Pclose(access);
    return file;
}

static void write_column(hid_t location, const char *name, hid_t type, const void *values,
                         hsize_t count)
{
    hsize_t dimensions[2] = {count, 1};
    hid_t space = H5Screate_simple(2, dimensions, NULL);
    hid_t dataset = H5Dcreate2(location, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(dataset >= 0);
    assert_true(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(dataset);
    H5Sclose(space);
}

static void write_doubles(hid_t location, const char *name, const double *values, hsize_t count)
{
    write_column(location, name, H5T_NATIVE_DOUBLE, values, count);
}

static void write_text(hid_t location, const char *name, const char *text)
{
    uint16_t units[64];
    size_t length = strlen(text);
    for (size_t index = 0; index < length; index++)
        units[index] = (uint8_t)text[index];
    write_column(location, name, H5T_NATIVE_UINT16, units, length);
}

static hobj_ref_t reference_to(hid_t file, const char *path)
{
    hobj_ref_t reference;
    assert_true(H5Rcreate(&reference, file, path, H5R_OBJECT, -1) >= 0);
    return reference;
}

static void write_references(hid_t location, const char *name, const hobj_ref_t *references,
                             hsize_t count)
{
    write_column(location, name, H5T_STD_REF_OBJ, references, count);
}

static hid_t create_group(hid_t location, const char *name)
{
    hid_t group = H5Gcreate2(location, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(group >= 0);
    return group;
}

/* The file image with MATLAB's 512-byte header in front: H5Fget_file_image leaves the user
   block out. */
static struct image finish(hid_t file)
{
    struct image image;
    assert_true(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0);
    ssize_t size = H5Fget_file_image(file, NULL, 0);
    assert_true(size > 0);
    image.size = 512 + (size_t)size;
    image.bytes = calloc(1, image.size);
    assert_non_null(image.bytes);
    assert_int_equal(H5Fget_file_image(file, image.bytes + 512, (size_t)size), size);
    assert_true(H5Fclose(file) >= 0);
    memcpy(image.bytes, "MATLAB 7.3 MAT-file, Platform: GLNXA64", 38);
    return image;
}

static const char *const fields[] = {"label", "height", "width", "left", "top"};

/* Element 1: one box, stored inline. */
static void write_single_box(hid_t file, hid_t references)
{
    hid_t box = create_group(references, "b0");
    for (size_t field = 0; field < 5; field++) {
        double value = 10.0 + (double)field;
        write_doubles(box, fields[field], &value, 1);
    }
    H5Gclose(box);
    (void)file;
}

/* Element 2: three boxes, each value a reference to a 1x1 dataset. */
static void write_three_boxes(hid_t file, hid_t references)
{
    hid_t box = create_group(references, "b1");
    for (size_t field = 0; field < 5; field++) {
        hobj_ref_t cell[3];
        for (size_t element = 0; element < 3; element++) {
            char path[64];
            double value = (double)(field * 100 + element) - 1.0;
            snprintf(path, sizeof path, "/#refs#/v1_%s_%zu", fields[field], element);
            write_doubles(file, path, &value, 1);
            cell[element] = reference_to(file, path);
        }
        write_references(box, fields[field], cell, 3);
    }
    H5Gclose(box);
}

/* /digitStruct/bbox and /digitStruct/name over the two elements; BBOX_REFERENCES may replace the
   bounding-box references (NULL: the real ones). */
static struct image digit_struct(const hobj_ref_t *bbox_references)
{
    hid_t file = create_file();
    hid_t references = create_group(file, "#refs#");
    write_single_box(file, references);
    write_three_boxes(file, references);
    write_text(references, "n0", "1.png");
    write_text(references, "n1", "2.png");
    hid_t main_group = create_group(file, "digitStruct");
    hobj_ref_t boxes[2] = {reference_to(file, "/#refs#/b0"), reference_to(file, "/#refs#/b1")};
    hobj_ref_t names[2] = {reference_to(file, "/#refs#/n0"), reference_to(file, "/#refs#/n1")};
    write_references(main_group, "bbox", bbox_references != NULL ? bbox_references : boxes, 2);
    write_references(main_group, "name", names, 2);
    H5Gclose(main_group);
    H5Gclose(references);
    return finish(file);
}

static struct matlab73_vector *open_vector(struct image *image, struct matlab73 **file,
                                           const char *path)
{
    struct matlab73_vector *vector = NULL;
    assert_int_equal(matlab73_open(file, image->bytes, image->size, "test.mat"), EXIT_OK);
    assert_int_equal(matlab73_vector_open(*file, path, &vector), EXIT_OK);
    return vector;
}

static void inline_single_box_is_read(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    struct matlab73_vector *bbox = open_vector(&image, &file, "digitStruct/bbox");
    struct matlab73_numbers numbers = {0};
    assert_int_equal(matlab73_vector_length(bbox), 2);
    for (size_t field = 0; field < 5; field++) {
        assert_int_equal(matlab73_vector_numbers(bbox, 0, fields[field], &numbers), EXIT_OK);
        assert_int_equal(numbers.count, 1);
        assert_true(numbers.values[0] == 10.0 + (double)field);
    }
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(bbox);
    matlab73_close(file);
    free(image.bytes);
}

static void referenced_cells_are_read_in_order(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    struct matlab73_vector *bbox = open_vector(&image, &file, "digitStruct/bbox");
    struct matlab73_numbers numbers = {0};
    for (size_t field = 0; field < 5; field++) {
        assert_int_equal(matlab73_vector_numbers(bbox, 1, fields[field], &numbers), EXIT_OK);
        assert_int_equal(numbers.count, 3);
        for (size_t element = 0; element < 3; element++)
            assert_true(numbers.values[element] == (double)(field * 100 + element) - 1.0);
    }
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(bbox);
    matlab73_close(file);
    free(image.bytes);
}

static void names_are_read_as_text(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    struct matlab73_vector *names = open_vector(&image, &file, "digitStruct/name");
    char text[16];
    assert_int_equal(matlab73_vector_text(names, 0, text, sizeof text), EXIT_OK);
    assert_string_equal(text, "1.png");
    assert_int_equal(matlab73_vector_text(names, 1, text, sizeof text), EXIT_OK);
    assert_string_equal(text, "2.png");
    assert_int_equal(matlab73_vector_text(names, 1, text, 5), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot read MATLAB 7.3 file: test.mat: digitStruct/name(2): text too long");
    assert_int_equal(matlab73_vector_text(names, 2, text, sizeof text), EXIT_CORRUPT_INPUT);
    matlab73_vector_close(names);
    matlab73_close(file);
    free(image.bytes);
}

static void dangling_reference_is_corrupt_input(void **state)
{
    (void)state;
    /* the second element points past the end of the file */
    hobj_ref_t forged[2] = {0, (hobj_ref_t)1 << 40};
    struct image image = digit_struct(forged);
    struct matlab73 *file;
    struct matlab73_vector *bbox = open_vector(&image, &file, "digitStruct/bbox");
    struct matlab73_numbers numbers = {0};
    assert_int_equal(matlab73_vector_numbers(bbox, 1, "label", &numbers), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot read MATLAB 7.3 file: test.mat: "
                                         "digitStruct/bbox(2).label: dangling object reference");
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(bbox);
    matlab73_close(file);
    free(image.bytes);
}

static void reference_to_a_dataset_where_a_struct_belongs_is_refused(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    /* the name vector references datasets, not structs */
    struct matlab73_vector *names = open_vector(&image, &file, "digitStruct/name");
    struct matlab73_numbers numbers = {0};
    assert_int_equal(matlab73_vector_numbers(names, 0, "label", &numbers), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "reference to something other than a struct"));
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(names);
    matlab73_close(file);
    free(image.bytes);
}

static void missing_field_is_refused(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    struct matlab73_vector *bbox = open_vector(&image, &file, "digitStruct/bbox");
    struct matlab73_numbers numbers = {0};
    assert_int_equal(matlab73_vector_numbers(bbox, 0, "colour", &numbers), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot read MATLAB 7.3 file: test.mat: "
                                         "digitStruct/bbox(1).colour: no such field");
    assert_int_equal(matlab73_vector_numbers(bbox, 2, "label", &numbers), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "digitStruct/bbox(3).label: no such element"));
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(bbox);
    matlab73_close(file);
    free(image.bytes);
}

static void missing_or_wrong_vector_is_refused(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file;
    struct matlab73_vector *vector = NULL;
    assert_int_equal(matlab73_open(&file, image.bytes, image.size, "test.mat"), EXIT_OK);
    assert_int_equal(matlab73_vector_open(file, "digitStruct/boxes", &vector), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot read MATLAB 7.3 file: test.mat: digitStruct/boxes: no such dataset");
    assert_int_equal(matlab73_vector_open(file, "#refs#/b0/label", &vector), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "not a vector of object references"));
    assert_null(vector);
    matlab73_close(file);
    free(image.bytes);
}

static void cell_of_non_scalars_is_refused(void **state)
{
    (void)state;
    hid_t file = create_file();
    hid_t references = create_group(file, "#refs#");
    const double pair[2] = {1, 2};
    write_doubles(references, "pair", pair, 2);
    hid_t box = create_group(references, "b0");
    hobj_ref_t cell[2] = {reference_to(file, "/#refs#/pair"), reference_to(file, "/#refs#/pair")};
    write_references(box, "label", cell, 2);
    hid_t main_group = create_group(file, "digitStruct");
    hobj_ref_t boxes[1] = {reference_to(file, "/#refs#/b0")};
    write_references(main_group, "bbox", boxes, 1);
    H5Gclose(main_group);
    H5Gclose(box);
    H5Gclose(references);
    struct image image = finish(file);
    struct matlab73 *opened;
    struct matlab73_vector *bbox = open_vector(&image, &opened, "digitStruct/bbox");
    struct matlab73_numbers numbers = {0};
    assert_int_equal(matlab73_vector_numbers(bbox, 0, "label", &numbers), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "cell element is not a single number"));
    matlab73_numbers_free(&numbers);
    matlab73_vector_close(bbox);
    matlab73_close(opened);
    free(image.bytes);
}

static void non_hdf5_bytes_are_refused(void **state)
{
    (void)state;
    char bytes[2048] = "MATLAB 5.0 MAT-file";
    struct matlab73 *file;
    assert_int_equal(matlab73_open(&file, bytes, sizeof bytes, "old.mat"), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "old.mat"));
}

static void truncated_file_is_refused(void **state)
{
    (void)state;
    struct image image = digit_struct(NULL);
    struct matlab73 *file = NULL;
    struct matlab73_vector *bbox = NULL;
    int code = matlab73_open(&file, image.bytes, image.size / 2, "cut.mat");
    if (code == EXIT_OK)
        code = matlab73_vector_open(file, "digitStruct/bbox", &bbox);
    assert_int_equal(code, EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "cut.mat"));
    matlab73_close(file);
    free(image.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inline_single_box_is_read),
        cmocka_unit_test(referenced_cells_are_read_in_order),
        cmocka_unit_test(names_are_read_as_text),
        cmocka_unit_test(dangling_reference_is_corrupt_input),
        cmocka_unit_test(reference_to_a_dataset_where_a_struct_belongs_is_refused),
        cmocka_unit_test(missing_field_is_refused),
        cmocka_unit_test(missing_or_wrong_vector_is_refused),
        cmocka_unit_test(cell_of_non_scalars_is_refused),
        cmocka_unit_test(non_hdf5_bytes_are_refused),
        cmocka_unit_test(truncated_file_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
