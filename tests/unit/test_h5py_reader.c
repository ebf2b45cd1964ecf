/* Unit tests of the H5PYDataset reader: Fuel's own files, hand-made h5py layouts, error paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"
#include "support.h"

#include <dirent.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[4200];

static void expected_path(const char *name)
{
    snprintf(path, sizeof path, "%s/expected/%s", test_data_directory(), name);
}

static void temporary_path(const char *name)
{
    snprintf(path, sizeof path, "%s/%s", test_directory, name);
}

/* The labels joined with ',' ("" for none), into a static buffer. */
static const char *joined(char *const *labels, size_t count)
{
    static char text[512];
    text[0] = '\0';
    for (size_t index = 0; index < count; index++) {
        if (index > 0)
            strcat(text, ",");
        strcat(text, labels[index]);
    }
    return text;
}

/* --- Fuel's reference files --------------------------------------------------------------- */

struct expected_source {
    const char *name;
    const char *dtype;
    int rank;
    uint64_t shape[4];
    const char *axis_labels;
    const char *shape_labels; /* NULL: not variable-length */
};

struct expected_split {
    const char *split;
    int64_t start;
    int64_t stop;
};

struct expected_file {
    const char *name;
    const char *command;
    struct expected_split splits[4];
    struct expected_source sources[7];
    const char *unavailable; /* "SPLIT/SOURCE": the one pair without data, if any */
};

static const char images[] = "batch,channel,height,width";

static const struct expected_file expected_files[] = {
    {"mnist.hdf5", "fuel-convert mnist -d raw/mnist -o expected",
     {{"train", 0, 12}, {"test", 12, 14}},
     {{"features", "uint8", 4, {14, 1, 28, 28}, images, NULL},
      {"targets", "uint8", 2, {14, 1}, "batch,index", NULL}}, NULL},
    {"mnist_float32.hdf5", "fuel-convert mnist -d raw/mnist -o expected --dtype float32",
     {{"train", 0, 12}, {"test", 12, 14}},
     {{"features", "float32", 4, {14, 1, 28, 28}, images, NULL},
      {"targets", "uint8", 2, {14, 1}, "batch,index", NULL}}, NULL},
    {"binarized_mnist.hdf5", NULL,
     {{"train", 0, 12}, {"valid", 12, 14}, {"test", 14, 16}},
     {{"features", "uint8", 4, {16, 1, 28, 28}, images, NULL}}, NULL},
    {"iris.hdf5", NULL,
     {{"all", 0, 150}},
     {{"features", "float32", 2, {150, 4}, "batch,feature", NULL},
      {"targets", "uint8", 2, {150, 1}, "batch,index", NULL}}, NULL},
    {"cifar10.hdf5", NULL,
     {{"train", 0, 60}, {"test", 60, 62}},
     {{"features", "uint8", 4, {62, 3, 32, 32}, images, NULL},
      {"targets", "uint8", 2, {62, 1}, "batch,index", NULL}}, NULL},
    {"cifar100.hdf5", NULL,
     {{"train", 0, 12}, {"test", 12, 14}},
     {{"coarse_labels", "uint8", 2, {14, 1}, "batch,index", NULL},
      {"features", "uint8", 4, {14, 3, 32, 32}, images, NULL},
      {"fine_labels", "uint8", 2, {14, 1}, "batch,index", NULL}}, NULL},
    {"svhn_format_2.hdf5", NULL,
     {{"train", 0, 12}, {"test", 12, 16}, {"extra", 16, 22}},
     {{"features", "uint8", 4, {22, 3, 32, 32}, images, NULL},
      {"targets", "float64", 2, {22, 1}, "batch,index", NULL}}, NULL},
    {"caltech101_silhouettes16.hdf5",
     "fuel-convert caltech101_silhouettes 16 -d raw/caltech101_silhouettes16 -o expected",
     {{"train", 0, 12}, {"valid", 12, 17}, {"test", 17, 21}},
     {{"features", "uint8", 4, {21, 1, 16, 16}, images, NULL},
      {"targets", "uint8", 2, {21, 1}, "batch,index", NULL}}, NULL},
    {"caltech101_silhouettes28.hdf5", NULL,
     {{"train", 0, 10}, {"valid", 10, 14}, {"test", 14, 17}},
     {{"features", "uint8", 4, {17, 1, 28, 28}, images, NULL},
      {"targets", "uint8", 2, {17, 1}, "batch,index", NULL}}, NULL},
    {"svhn_format_1.hdf5", "fuel-convert svhn 1 -d raw/svhn1 -o expected",
     {{"train", 0, 12}, {"test", 12, 16}, {"extra", 16, 22}},
     {{"bbox_heights", "uint16", 1, {22}, "batch", "bounding_box,height"},
      {"bbox_labels", "uint8", 1, {22}, "batch", "bounding_box,index"},
      {"bbox_lefts", "uint16", 1, {22}, "batch", "bounding_box,x"},
      {"bbox_tops", "uint16", 1, {22}, "batch", "bounding_box,y"},
      {"bbox_widths", "uint16", 1, {22}, "batch", "bounding_box,width"},
      {"features", "uint8", 1, {22}, "batch", "channel,height,width"}}, NULL},
    {"celeba_64.hdf5", "fuel-convert celeba 64 -d raw/celeba -o expected",
     {{"train", 0, 8}, {"valid", 8, 9}, {"test", 9, 10}},
     {{"features", "uint8", 4, {10, 3, 64, 64}, images, NULL},
      {"targets", "uint8", 2, {10, 40}, "batch,target", NULL}}, NULL},
    {"dogs_vs_cats.hdf5", "fuel-convert dogs_vs_cats -d raw/dogs_vs_cats -o expected",
     {{"train", 0, 8}, {"test", 8, 19}},
     {{"image_features", "uint8", 1, {19}, "batch", "channel,height,width"},
      {"targets", "uint8", 2, {8, 1}, "batch,index", NULL}},
     "test/targets"},
};
enum { EXPECTED_FILE_COUNT = sizeof expected_files / sizeof expected_files[0] };

static void check_source(const struct h5py_file *file, const struct expected_source *expected)
{
    const struct h5py_file_source *source = h5py_file_source(file, expected->name);
    assert_non_null(source);
    assert_true(source->present);
    assert_string_equal(source->dtype, expected->dtype);
    assert_int_equal(source->rank, expected->rank);
    for (int axis = 0; axis < expected->rank; axis++)
        assert_int_equal(source->shape[axis], expected->shape[axis]);
    assert_string_equal(joined(source->axis_labels, (size_t)source->rank), expected->axis_labels);
    assert_int_equal(source->variable_length, expected->shape_labels != NULL);
    if (expected->shape_labels == NULL)
        return;
    assert_string_equal(joined(source->shape_labels, source->shape_label_count),
                        expected->shape_labels);
    char shapes[64];
    snprintf(shapes, sizeof shapes, "%s_shapes", expected->name);
    assert_string_equal(source->shapes_name, shapes);
    assert_int_equal(source->shapes_rows, expected->shape[0]);
    assert_int_equal(source->shapes_columns, source->shape_label_count);
}

/* Every (split, source) row: available, contiguous, the expected span and count, comment "."; the
   pair without data unavailable, from 0 to 0. */
static void check_rows(const struct h5py_file *file, const struct expected_file *expected)
{
    for (size_t index = 0; index < file->row_count; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        char pair[128];
        snprintf(pair, sizeof pair, "%s/%s", row->split, row->source);
        if (expected->unavailable != NULL && strcmp(pair, expected->unavailable) == 0) {
            assert_false(row->available);
            assert_true(row->start == 0 && row->stop == 0);
            continue;
        }
        const struct expected_split *split = NULL;
        for (size_t candidate = 0; candidate < 4 && expected->splits[candidate].split; candidate++)
            if (strcmp(expected->splits[candidate].split, row->split) == 0)
                split = &expected->splits[candidate];
        assert_non_null(split);
        assert_non_null(h5py_file_source(file, row->source));
        assert_int_equal(row->start, split->start);
        assert_int_equal(row->stop, split->stop);
        assert_true(row->available);
        assert_int_equal(row->indices, INDICES_NONE);
        assert_null(row->indices_name);
        assert_string_equal(row->comment, ".");
        assert_int_equal(h5py_split_row_count(row), (uint64_t)(split->stop - split->start));
    }
}

/* The shapes scale's type and the shape_labels scale's dataset, as each Fuel converter names them
   (a cut keeps them). */
static void shapes_layouts(void **state)
{
    (void)state;
    struct h5py_file *file = test_open_expected("dogs_vs_cats.hdf5");
    const struct h5py_file_source *source = h5py_file_source(file, "image_features");
    assert_true(source->shapes_int32);
    assert_string_equal(source->shapes_name, "image_features_shapes");
    assert_string_equal(source->shape_labels_name, "image_features_shapes_labels");
    h5py_reader_close(file);
    file = test_open_expected("svhn_format_1.hdf5");
    source = h5py_file_source(file, "features");
    assert_false(source->shapes_int32);
    assert_string_equal(source->shape_labels_name, "features_vlen_axis_labels");
    h5py_reader_close(file);
}

static void check_expected_file(const struct expected_file *expected)
{
    struct h5py_file *file;
    expected_path(expected->name);
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    size_t split_count = 0, source_count = 0;
    while (split_count < 4 && expected->splits[split_count].split != NULL)
        split_count++;
    while (source_count < 7 && expected->sources[source_count].name != NULL)
        source_count++;
    assert_int_equal(file->split_count, split_count);
    assert_int_equal(file->source_count, source_count);
    assert_int_equal(file->row_count, split_count * source_count);
    for (size_t index = 0; index < source_count; index++)
        check_source(file, &expected->sources[index]);
    check_rows(file, expected);
    assert_string_equal(h5py_file_attribute(file, "h5py_interface_version"), "0.3");
    assert_string_equal(h5py_file_attribute(file, "fuel_convert_version"), "0.2");
    assert_non_null(h5py_file_attribute(file, "fuel_convert_command"));
    if (expected->command != NULL)
        assert_string_equal(h5py_file_attribute(file, "fuel_convert_command"), expected->command);
    assert_null(h5py_file_attribute(file, "split"));
    h5py_reader_close(file);
}

static void reads_fuel_reference_files(void **state)
{
    (void)state;
    for (size_t index = 0; index < EXPECTED_FILE_COUNT; index++)
        check_expected_file(&expected_files[index]);
}

/* Every file in expected/ is covered above, so a new reference file cannot go unread. */
static void covers_every_reference_file(void **state)
{
    (void)state;
    char name[4200];
    snprintf(name, sizeof name, "%s/expected", test_data_directory());
    DIR *listing = opendir(name);
    assert_non_null(listing);
    size_t count = 0;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;) {
        if (entry->d_name[0] == '.')
            continue;
        bool known = false;
        for (size_t index = 0; index < EXPECTED_FILE_COUNT; index++)
            known = known || strcmp(expected_files[index].name, entry->d_name) == 0;
        assert_true(known);
        count++;
    }
    closedir(listing);
    assert_int_equal(count, EXPECTED_FILE_COUNT);
}

/* --- Files made here with the HDF5 C API -------------------------------------------------- */

static void write_fixed_string_attribute(hid_t file, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    H5Tset_size(type, strlen(value));
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    hid_t attribute = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(attribute >= 0);
    assert_true(H5Awrite(attribute, type, value) >= 0);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
}

static hid_t write_dataset(hid_t file, const char *name, hid_t type, int rank,
                           const hsize_t *dimensions, const void *data)
{
    hid_t space = H5Screate_simple(rank, dimensions, NULL);
    hid_t dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(dataset >= 0);
    assert_true(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    H5Sclose(space);
    return dataset;
}

/* A split row as another writer may lay it out: variable-length strings, int32 spans,
   `available` a plain int8 rather than numpy's bool enum. */
struct other_row {
    const char *split;
    const char *source;
    int32_t start;
    int32_t stop;
    hobj_ref_t indices;
    int8_t available;
    const char *comment;
};

static void write_other_split(hid_t file, const struct other_row *rows, hsize_t count)
{
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, H5T_VARIABLE);
    hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(struct other_row));
    H5Tinsert(type, "split", HOFFSET(struct other_row, split), text);
    H5Tinsert(type, "source", HOFFSET(struct other_row, source), text);
    H5Tinsert(type, "start", HOFFSET(struct other_row, start), H5T_NATIVE_INT32);
    H5Tinsert(type, "stop", HOFFSET(struct other_row, stop), H5T_NATIVE_INT32);
    H5Tinsert(type, "indices", HOFFSET(struct other_row, indices), H5T_STD_REF_OBJ);
    H5Tinsert(type, "available", HOFFSET(struct other_row, available), H5T_NATIVE_INT8);
    H5Tinsert(type, "comment", HOFFSET(struct other_row, comment), text);
    hid_t space = H5Screate_simple(1, &count, NULL);
    hid_t attribute = H5Acreate2(file, "split", type, space, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(attribute >= 0);
    assert_true(H5Awrite(attribute, type, rows) >= 0);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Tclose(text);
}

/* Even examples train, odd test, through `indices` datasets; a group reference is dangling. */
static void make_other_writer_file(void)
{
    temporary_path("other.hdf5");
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(file >= 0);
    float features[10][3] = {{0}};
    int64_t even[5] = {0, 2, 4, 6, 8}, odd[5] = {1, 3, 5, 7, 9};
    hsize_t feature_shape[2] = {10, 3}, index_shape[1] = {5};
    hid_t dataset = write_dataset(file, "features", H5T_NATIVE_FLOAT, 2, feature_shape, features);
    H5DSset_label(dataset, 0, "batch");
    H5DSset_label(dataset, 1, "feature");
    H5Dclose(dataset);
    H5Dclose(write_dataset(file, "train_indices", H5T_NATIVE_INT64, 1, index_shape, even));
    H5Dclose(write_dataset(file, "test_indices", H5T_NATIVE_INT64, 1, index_shape, odd));
    H5Gclose(H5Gcreate2(file, "a_group", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    struct other_row rows[4] = {
        {"train", "features", -1, -1, 0, 1, "even rows"},
        {"test", "features", -1, -1, 0, 1, ""},
        {"valid", "features", 0, 0, 0, 0, "."},
        {"valid", "ghost", 0, 0, 0, 0, "."},
    };
    assert_true(H5Rcreate(&rows[0].indices, file, "train_indices", H5R_OBJECT, -1) >= 0);
    assert_true(H5Rcreate(&rows[1].indices, file, "a_group", H5R_OBJECT, -1) >= 0);
    write_other_split(file, rows, 4);
    write_fixed_string_attribute(file, "h5py_interface_version", "0.3");
    write_fixed_string_attribute(file, "note", "made by hand  ");
    hid_t space = H5Screate(H5S_SCALAR);
    H5Aclose(H5Acreate2(file, "number", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT));
    H5Sclose(space);
    H5Fclose(file);
}

static void reads_other_writers_layout(void **state)
{
    (void)state;
    make_other_writer_file();
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    assert_int_equal(file->row_count, 4);
    assert_int_equal(file->split_count, 3);
    assert_string_equal(joined(file->splits, file->split_count), "train,test,valid");
    const struct h5py_split_row *train = &file->rows[0], *test = &file->rows[1];
    assert_string_equal(train->comment, "even rows");
    assert_int_equal(train->start, -1);
    assert_int_equal(train->indices, INDICES_DATASET);
    assert_string_equal(train->indices_name, "train_indices");
    assert_int_equal(train->indices_rank, 1);
    assert_int_equal(train->indices_length, 5);
    assert_true(train->indices_integer);
    assert_int_equal(h5py_split_row_count(train), 5);
    assert_int_equal(test->indices, INDICES_DANGLING);
    assert_string_equal(test->comment, "");
    assert_int_equal(h5py_split_row_count(test), 0);
    assert_false(file->rows[2].available);
    assert_int_equal(h5py_split_row_count(&file->rows[2]), 0);
    assert_string_equal(h5py_file_attribute(file, "h5py_interface_version"), "0.3");
    assert_string_equal(h5py_file_attribute(file, "note"), "made by hand");
    assert_null(h5py_file_attribute(file, "number"));
    assert_null(h5py_file_attribute(file, "fuel_convert_command"));
    assert_int_equal(file->source_count, 2);
    assert_false(file->sources[1].present);
    assert_string_equal(file->sources[1].name, "ghost");
    assert_null(file->sources[1].dtype);
    assert_true(file->sources[0].present);
    assert_string_equal(file->sources[0].dtype, "float32");
    assert_string_equal(joined(file->sources[0].axis_labels, 2), "batch,feature");
    assert_false(file->sources[0].variable_length);
    h5py_reader_close(file);
}

/* --- A file made by h5py as chapter 4 of Fuel's documentation shows ------------------------- */

static const char chapter_four_script[] =
    "import h5py, numpy, sys\n"
    "f = h5py.File(sys.argv[1], 'w')\n"
    "f.create_dataset('vector_features', (100, 10), dtype='float32')\n"
    "images = f.create_dataset('image_features', (100,), dtype=h5py.vlen_dtype(numpy.uint8))\n"
    "images.dims[0].label = 'batch'\n"
    "f['image_features_shapes'] = numpy.ones((100, 3), dtype='int32')\n"
    "f['image_features_shapes'].make_scale('shapes')\n"
    "images.dims[0].attach_scale(f['image_features_shapes'])\n"
    "f['image_features_shape_labels'] = [b'channel', b'height', b'width']\n"
    "f['image_features_shape_labels'].make_scale('shape_labels')\n"
    "images.dims[0].attach_scale(f['image_features_shape_labels'])\n"
    "f['train_indices'] = numpy.arange(0, 100, 2)\n"
    "f['test_indices'] = numpy.arange(1, 100, 2)\n"
    "rows = numpy.empty(4, dtype=[('split', 'S5'), ('source', 'S15'), ('start', numpy.int64),\n"
    "    ('stop', numpy.int64), ('indices', h5py.special_dtype(ref=h5py.Reference)),\n"
    "    ('available', bool), ('comment', 'S1')])\n"
    "for i, (split, source) in enumerate([(b'train', b'vector_features'),\n"
    "        (b'train', b'image_features'), (b'test', b'vector_features'),\n"
    "        (b'test', b'image_features')]):\n"
    "    name = 'train_indices' if split == b'train' else 'test_indices'\n"
    "    rows[i] = (split, source, -1, -1, f[name].ref, True, b'.')\n"
    "f.attrs['split'] = rows\n"
    "f.attrs['h5py_interface_version'] = numpy.bytes_(b'0.3')\n"
    "f.attrs['fuel_convert_command'] = numpy.bytes_(b'by hand')\n"
    "f.close()\n";

static void reads_chapter_four_file(void **state)
{
    (void)state;
    char script[4200], command[8600];
    snprintf(script, sizeof script, "%s/chapter4.py", test_directory);
    FILE *stream = fopen(script, "w");
    assert_non_null(stream);
    fputs(chapter_four_script, stream);
    fclose(stream);
    temporary_path("chapter4.hdf5");
    snprintf(command, sizeof command, "/usr/bin/python3 %s %s", script, path);
    assert_int_equal(system(command), 0);
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    assert_int_equal(file->row_count, 4);
    assert_string_equal(h5py_file_attribute(file, "h5py_interface_version"), "0.3");
    assert_string_equal(h5py_file_attribute(file, "fuel_convert_command"), "by hand");
    for (size_t index = 0; index < 4; index++) {
        assert_int_equal(file->rows[index].indices, INDICES_DATASET);
        assert_string_equal(file->rows[index].indices_name,
                            index < 2 ? "train_indices" : "test_indices");
        assert_int_equal(h5py_split_row_count(&file->rows[index]), 50);
        assert_true(file->rows[index].available);
    }
    const struct h5py_file_source *images = h5py_file_source(file, "image_features");
    assert_non_null(images);
    assert_true(images->variable_length);
    assert_string_equal(images->dtype, "uint8");
    assert_string_equal(images->shapes_name, "image_features_shapes");
    assert_int_equal(images->shapes_columns, 3);
    assert_string_equal(joined(images->shape_labels, images->shape_label_count),
                        "channel,height,width");
    const struct h5py_file_source *vectors = h5py_file_source(file, "vector_features");
    assert_string_equal(joined(vectors->axis_labels, 2), ",");
    h5py_reader_close(file);
}

/* --- Error paths -------------------------------------------------------------------------- */

static void check_fails(int code, const char *message_part)
{
    struct h5py_file *file = (struct h5py_file *)1;
    error_clear();
    assert_int_equal(h5py_reader_open(&file, path), code);
    assert_null(file);
    assert_int_equal(error_code(), code);
    assert_non_null(strstr(error_message(), message_part));
    assert_null(strchr(error_message(), '\n'));
}

static void missing_file_is_missing_input(void **state)
{
    (void)state;
    temporary_path("absent.hdf5");
    check_fails(EXIT_MISSING_INPUT, "absent.hdf5");
}

static void text_file_is_corrupt_input(void **state)
{
    (void)state;
    temporary_path("text.hdf5");
    FILE *stream = fopen(path, "w");
    fputs("this is not HDF5\n", stream);
    fclose(stream);
    check_fails(EXIT_CORRUPT_INPUT, "not an HDF5 file");
    temporary_path("");
    check_fails(EXIT_CORRUPT_INPUT, "not a regular file");
}

static void truncated_file_is_corrupt_input(void **state)
{
    (void)state;
    char source[4200];
    expected_path("mnist.hdf5");
    snprintf(source, sizeof source, "%s", path);
    temporary_path("truncated.hdf5");
    char command[8600];
    snprintf(command, sizeof command, "head -c 3000 %s > %s", source, path);
    assert_int_equal(system(command), 0);
    check_fails(EXIT_CORRUPT_INPUT, "truncated.hdf5");
}

static void no_split_is_corrupt_input(void **state)
{
    (void)state;
    temporary_path("nosplit.hdf5");
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_fixed_string_attribute(file, "h5py_interface_version", "0.3");
    H5Fclose(file);
    check_fails(EXIT_CORRUPT_INPUT, "no split attribute");
}

/* Writes a `split` attribute of TYPE with COUNT rows (rank 1, or 2 x COUNT when RANK is 2). */
static void make_split_file(hid_t type, int rank, hsize_t count)
{
    temporary_path("malformed.hdf5");
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dimensions[2] = {2, count};
    hid_t space = rank == 1 ? H5Screate_simple(1, &count, NULL)
                            : H5Screate_simple(2, dimensions, NULL);
    hid_t attribute = H5Acreate2(file, "split", type, space, H5P_DEFAULT, H5P_DEFAULT);
    size_t size = H5Tget_size(type) * (size_t)count * 2;
    void *zeros = calloc(1, size + 1);
    assert_true(H5Awrite(attribute, type, zeros) >= 0);
    free(zeros);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Fclose(file);
}

/* Fuel's seven fields, with FIELD replaced by a field of REPLACEMENT (or left out if < 0). */
static hid_t split_type(const char *field, hid_t replacement)
{
    static const char *const names[] = {"split", "source", "start", "stop", "indices",
                                        "available", "comment"};
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, 5);
    hid_t types[] = {text, text, H5T_STD_I64LE, H5T_STD_I64LE, H5T_STD_REF_OBJ, H5T_STD_I8LE,
                     text};
    hid_t type = H5Tcreate(H5T_COMPOUND, 64);
    size_t offset = 0;
    for (size_t index = 0; index < 7; index++) {
        hid_t member = strcmp(names[index], field) == 0 ? replacement : types[index];
        if (member < 0)
            continue;
        H5Tinsert(type, names[index], offset, member);
        offset += H5Tget_size(member);
    }
    H5Tclose(text);
    return type;
}

static void malformed_split_is_corrupt_input(void **state)
{
    (void)state;
    make_split_file(H5T_NATIVE_INT, 1, 4);
    check_fails(EXIT_CORRUPT_INPUT, "malformed split attribute");
    hid_t type = split_type("available", -1);
    make_split_file(type, 1, 2);
    check_fails(EXIT_CORRUPT_INPUT, "no field available");
    H5Tclose(type);
    type = split_type("source", H5T_STD_I64LE);
    make_split_file(type, 1, 2);
    check_fails(EXIT_CORRUPT_INPUT, "not a string field: source");
    H5Tclose(type);
    type = split_type("stop", H5T_IEEE_F64LE);
    make_split_file(type, 1, 2);
    check_fails(EXIT_CORRUPT_INPUT, "not an integer field: stop");
    H5Tclose(type);
    type = split_type("indices", H5T_STD_I64LE);
    make_split_file(type, 1, 2);
    check_fails(EXIT_CORRUPT_INPUT, "not an object reference field: indices");
    H5Tclose(type);
    type = split_type("none", -1);
    make_split_file(type, 2, 2);
    check_fails(EXIT_CORRUPT_INPUT, "not a one-dimensional array");
    make_split_file(type, 1, 0);
    check_fails(EXIT_CORRUPT_INPUT, "no rows");
    H5Tclose(type);
}

/* A DIMENSION_LABELS attribute with more labels than the dataset has dimensions: read, with the
   count kept for the checker to report. */
static void extra_axis_labels_are_counted(void **state)
{
    (void)state;
    make_other_writer_file();
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t dataset = H5Dopen2(file, "features", H5P_DEFAULT);
    H5Adelete(dataset, "DIMENSION_LABELS");
    const char *labels[3] = {"batch", "feature", "extra"};
    hsize_t count = 3;
    hid_t text = H5Tcopy(H5T_C_S1), space = H5Screate_simple(1, &count, NULL);
    H5Tset_size(text, H5T_VARIABLE);
    hid_t attribute = H5Acreate2(dataset, "DIMENSION_LABELS", text, space, H5P_DEFAULT,
                                 H5P_DEFAULT);
    assert_true(H5Awrite(attribute, text, labels) >= 0);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(text);
    H5Dclose(dataset);
    H5Fclose(file);
    struct h5py_file *opened;
    assert_int_equal(h5py_reader_open(&opened, path), EXIT_OK);
    const struct h5py_file_source *features = h5py_file_source(opened, "features");
    assert_int_equal(features->rank, 2);
    assert_int_equal(features->axis_label_count, 3);
    assert_string_equal(joined(features->axis_labels, 2), "batch,feature");
    h5py_reader_close(opened);
}

/* Bounds from a hostile file, further apart than INT64_MAX (fuzzing: signed overflow). */
static void test_row_count_of_extreme_bounds(void **state)
{
    (void)state;
    struct h5py_split_row row = {.available = true, .indices = INDICES_NONE,
                                 .start = INT64_MIN, .stop = INT64_MAX};
    assert_true(h5py_split_row_count(&row) == UINT64_MAX);
    row.start = -454761244;
    assert_true(h5py_split_row_count(&row) == (uint64_t)INT64_MAX + 454761244u);
    row.start = INT64_MAX;
    row.stop = INT64_MIN;
    assert_true(h5py_split_row_count(&row) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_count_of_extreme_bounds),
        cmocka_unit_test(reads_fuel_reference_files),
        cmocka_unit_test(covers_every_reference_file),
        cmocka_unit_test(shapes_layouts),
        cmocka_unit_test(reads_other_writers_layout),
        cmocka_unit_test(reads_chapter_four_file),
        cmocka_unit_test(missing_file_is_missing_input),
        cmocka_unit_test(text_file_is_corrupt_input),
        cmocka_unit_test(truncated_file_is_corrupt_input),
        cmocka_unit_test(no_split_is_corrupt_input),
        cmocka_unit_test(malformed_split_is_corrupt_input),
        cmocka_unit_test(extra_axis_labels_are_counted),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
