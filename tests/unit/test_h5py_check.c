/* Unit tests of the H5PYDataset invariant checks: Fuel's files pass, each broken invariant is
   one violation line (files broken with h5py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "common/h5py/h5py_input.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies the reference file NAME into the directory as broken.hdf5 and runs the Python lines
   BREAK on it as `f` (opened read-write with h5py); returns the violations. */
static struct h5py_violations violations_of(const char *name, const char *lines)
{
    char script[200], path[200], command[1200];
    snprintf(script, sizeof script, "%s/break.py", test_directory);
    snprintf(path, sizeof path, "%s/broken.hdf5", test_directory);
    FILE *stream = fopen(script, "w");
    assert_non_null(stream);
    fprintf(stream, "import sys, h5py, numpy\nf = h5py.File(sys.argv[1], 'r+')\n%s\nf.close()\n",
            lines);
    fclose(stream);
    snprintf(command, sizeof command, "cp %s/expected/%s %s && chmod u+w %s && /usr/bin/python3 %s %s",
             test_data_directory(), name, path, path, script, path);
    assert_int_equal(system(command), 0);
    struct h5py_file *file;
    struct h5py_violations violations = {0};
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    assert_int_equal(h5py_check(file, &violations), EXIT_OK);
    h5py_reader_close(file);
    return violations;
}

static void assert_single_violation(const char *name, const char *lines, const char *expected)
{
    struct h5py_violations violations = violations_of(name, lines);
    assert_int_equal(violations.count, 1);
    assert_string_equal(violations.lines[0], expected);
    h5py_violations_free(&violations);
    assert_int_equal(violations.count, 0);
}

static void reference_files_pass(void **state)
{
    (void)state;
    static const char *const names[] = {"mnist.hdf5", "mnist_float32.hdf5", "binarized_mnist.hdf5",
                                        "iris.hdf5", "cifar10.hdf5", "cifar100.hdf5",
                                        "svhn_format_1.hdf5", "svhn_format_2.hdf5"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        struct h5py_violations violations = violations_of(names[index], "pass");
        assert_int_equal(violations.count, 0);
        h5py_violations_free(&violations);
    }
}

static void missing_and_repeated_rows(void **state)
{
    (void)state;
    struct h5py_violations violations =
        violations_of("mnist.hdf5", "rows = f.attrs['split']\nrows[1] = rows[0]\n"
                                    "f.attrs['split'] = rows");
    assert_int_equal(violations.count, 2);
    assert_string_equal(violations.lines[0],
                        "split row repeated: split test, source features: 2 rows");
    assert_string_equal(violations.lines[1], "split row missing: split test, source targets");
    h5py_violations_free(&violations);
}

static void span_past_the_end(void **state)
{
    (void)state;
    struct h5py_violations violations =
        violations_of("iris.hdf5", "rows = f.attrs['split']\nrows[1]['stop'] = 151\n"
                                   "f.attrs['split'] = rows");
    assert_int_equal(violations.count, 2);
    assert_string_equal(violations.lines[0], "span outside the source: split all, source targets: "
                                             "[0, 151) but targets has 150 examples");
    assert_string_equal(violations.lines[1],
                        "sources of unequal length in split all: features 150, targets 151");
    h5py_violations_free(&violations);
}

static void reversed_span(void **state)
{
    (void)state;
    struct h5py_violations violations = violations_of(
        "iris.hdf5", "rows = f.attrs['split']\nfor i in (0, 1):\n    rows[i]['start'] = 5\n"
                     "    rows[i]['stop'] = 4\nf.attrs['split'] = rows");
    assert_int_equal(violations.count, 2);
    assert_string_equal(violations.lines[0], "span outside the source: split all, source "
                                             "features: [5, 4) but features has 150 examples");
    h5py_violations_free(&violations);
}

static void dangling_reference(void **state)
{
    (void)state;
    assert_single_violation("iris.hdf5",
                            "f['gone'] = numpy.arange(150)\nrows = f.attrs['split']\n"
                            "rows[1]['indices'] = f['gone'].ref\nf.attrs['split'] = rows\n"
                            "del f['gone']",
                            "dangling indices reference: split all, source targets: it resolves "
                            "to no dataset");
}

static void indices_out_of_range(void **state)
{
    (void)state;
    assert_single_violation(
        "iris.hdf5",
        "f['low'] = numpy.arange(150) - 1\nrows = f.attrs['split']\n"
        "f['high'] = numpy.arange(150)\n"
        "rows[0]['indices'] = f['low'].ref\nrows[1]['indices'] = f['high'].ref\n"
        "f.attrs['split'] = rows",
        "index out of range: split all, source features: low[0] = -1 but features has 150 "
        "examples");
}

/* Indices past the first chunk read are checked too. */
static void indices_out_of_range_far_in(void **state)
{
    (void)state;
    assert_single_violation(
        "iris.hdf5",
        "values = numpy.zeros(200000, dtype='int32')\nvalues[150000] = 150\n"
        "f['many'] = values\nf['many_too'] = numpy.zeros(200000, dtype='uint8')\n"
        "rows = f.attrs['split']\n"
        "rows[0]['indices'] = f['many'].ref\nrows[1]['indices'] = f['many_too'].ref\n"
        "f.attrs['split'] = rows",
        "index out of range: split all, source features: many[150000] = 150 but features has "
        "150 examples");
}

static void indices_not_integers(void **state)
{
    (void)state;
    struct h5py_violations violations = violations_of(
        "iris.hdf5", "f['two'] = numpy.zeros((150, 1), dtype='int64')\n"
                     "f['reals'] = numpy.zeros(150)\nrows = f.attrs['split']\n"
                     "rows[0]['indices'] = f['two'].ref\nrows[1]['indices'] = f['reals'].ref\n"
                     "f.attrs['split'] = rows");
    assert_int_equal(violations.count, 2);
    assert_string_equal(violations.lines[0],
                        "indices not a 1-D integer dataset: split all, source features: two");
    assert_string_equal(violations.lines[1],
                        "indices not a 1-D integer dataset: split all, source targets: reals");
    h5py_violations_free(&violations);
}

static void axis_label_count(void **state)
{
    (void)state;
    assert_single_violation("mnist.hdf5",
                            "d = f['features']\ndel d.attrs['DIMENSION_LABELS']\n"
                            "d.attrs['DIMENSION_LABELS'] = numpy.array([b'batch', b'channel'])",
                            "axis labels of features: 2 labels for 4 dimensions");
}

static void missing_source(void **state)
{
    (void)state;
    assert_single_violation("iris.hdf5", "f.move('targets', 'elsewhere')",
                            "source missing: targets: named in the split attribute, no such "
                            "dataset in the file");
}

static void variable_length_element_count(void **state)
{
    (void)state;
    assert_single_violation("svhn_format_1.hdf5",
                            "s = f['bbox_heights_shapes']\nrow = s[20]\nrow[0] = 2\ns[20] = row",
                            "shapes of bbox_heights: example 20 has 3 elements but its shape "
                            "holds 2");
}

static void variable_length_shape_rows_and_labels(void **state)
{
    (void)state;
    assert_single_violation(
        "svhn_format_1.hdf5",
        "d = f['bbox_tops']\nold = f['bbox_tops_shapes']\nd.dims[0].detach_scale(old)\n"
        "rows = old[:5]\ndel f['bbox_tops_shapes']\nf['bbox_tops_shapes'] = rows\n"
        "f['bbox_tops_shapes'].make_scale('shapes')\nd.dims[0].attach_scale(f['bbox_tops_shapes'])",
        "shapes of bbox_tops: 5 rows for 22 examples");
    assert_single_violation(
        "svhn_format_1.hdf5",
        "d = f['features']\nold = f['features_vlen_axis_labels']\nd.dims[0].detach_scale(old)\n"
        "del f['features_vlen_axis_labels']\n"
        "f['features_vlen_axis_labels'] = [b'channel', b'height']\n"
        "f['features_vlen_axis_labels'].make_scale('shape_labels')\n"
        "d.dims[0].attach_scale(f['features_vlen_axis_labels'])",
        "shape labels of features: 2 labels for 3 shape columns");
}

/* A `shapes` scale on fixed-type datasets: one of two dimensions, one of one. */
static void shapes_scale_on_fixed_datasets(void **state)
{
    (void)state;
    struct h5py_violations violations = violations_of(
        "iris.hdf5", "f['s'] = numpy.ones((150, 1), dtype='uint16')\nf['s'].make_scale('shapes')\n"
                     "f['features'].dims[0].attach_scale(f['s'])\ndel f['targets']\n"
                     "f['targets'] = numpy.zeros(150, dtype='uint8')\n"
                     "f['targets'].dims[0].attach_scale(f['s'])");
    assert_int_equal(violations.count, 2);
    assert_string_equal(violations.lines[0], "variable-length source features: 2 dimensions, not 1");
    assert_string_equal(violations.lines[1], "shapes of targets: a shapes scale on a dataset that "
                                             "is not variable-length");
    h5py_violations_free(&violations);
}

/* Fuel reads examples of at most 64 MiB; the size is computed without overflowing. */
static void examples_too_large(void **state)
{
    (void)state;
    assert_single_violation(
        "mnist.hdf5",
        "del f['features']\nf.create_dataset('features', shape=(14, 1, 2**20, 2**20), "
        "dtype='uint8', chunks=(1, 1, 1024, 1024))\n"
        "for axis, label in enumerate(['batch', 'channel', 'height', 'width']):\n"
        "    f['features'].dims[axis].label = label",
        "example too large: features: 1099511627776 bytes each, more than the 67108864 fuel "
        "reads");
    assert_single_violation(
        "mnist.hdf5",
        "del f['targets']\nf.create_dataset('targets', shape=(14, 2**32, 2**32, 2), "
        "dtype='uint8', chunks=(1, 1, 1024, 2))\n"
        "for axis, label in enumerate(['batch', 'a', 'b', 'c']):\n"
        "    f['targets'].dims[axis].label = label",
        "example too large: targets: over 18446744073709551615 bytes each, more than the "
        "67108864 fuel reads");
}

/* Contiguous data allocated short of its shape was never written; chunks never written hold the
   fill value honestly. */
static void contiguous_data_never_written(void **state)
{
    (void)state;
    const char *redeclare = "del f['targets']\n"
                            "f.create_dataset('targets', shape=(14, 1), dtype='uint8'%s)\n"
                            "f['targets'].dims[0].label = 'batch'\n"
                            "f['targets'].dims[1].label = 'index'";
    char lines[400];
    snprintf(lines, sizeof lines, redeclare, "");
    assert_single_violation("mnist.hdf5", lines,
                            "data not stored: targets: 14 examples declared (14 bytes), 0 bytes "
                            "stored");
    snprintf(lines, sizeof lines, redeclare, ", chunks=(4, 1)");
    struct h5py_violations violations = violations_of("mnist.hdf5", lines);
    assert_int_equal(violations.count, 0);
    snprintf(lines, sizeof lines, redeclare, "");
    strcat(lines, "\nf['targets'][...] = 3");
    violations = violations_of("mnist.hdf5", lines);
    assert_int_equal(violations.count, 0);
}

/* The structural checks read no variable-length example: the readers compare each they read. */
static void structure_reads_no_variable_length_example(void **state)
{
    (void)state;
    struct h5py_violations violations = violations_of(
        "svhn_format_1.hdf5", "s = f['bbox_heights_shapes']\nrow = s[20]\nrow[0] = 2\ns[20] = row");
    assert_int_equal(violations.count, 1);
    h5py_violations_free(&violations);
    char path[200];
    snprintf(path, sizeof path, "%s/broken.hdf5", test_directory);
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    assert_int_equal(h5py_check_structure(file, &violations), EXIT_OK);
    assert_int_equal(violations.count, 0);
    h5py_reader_close(file);
}

/* The verdict every command gives: the first violation, how many more, no file left open. */
static void input_verdict(void **state)
{
    (void)state;
    char path[200], expected[600];
    snprintf(path, sizeof path, "%s/broken.hdf5", test_directory);
    struct h5py_violations violations = violations_of("iris.hdf5", "pass");
    h5py_violations_free(&violations);
    struct h5py_file *file = NULL;
    assert_int_equal(h5py_input_open(&file, path), EXIT_OK);
    assert_non_null(file);
    h5py_reader_close(file);
    violations = violations_of("mnist.hdf5", "del f['targets']");
    h5py_violations_free(&violations);
    assert_int_equal(h5py_input_open(&file, path), EXIT_CORRUPT_INPUT);
    assert_null(file);
    snprintf(expected, sizeof expected, "check failed: %s: source missing: targets: named in the "
             "split attribute, no such dataset in the file", path);
    assert_string_equal(error_message(), expected);
    violations = violations_of("mnist.hdf5", "del f['targets']\nrows = f.attrs['split']\n"
                                             "rows[2]['stop'] = 100\nf.attrs['split'] = rows");
    assert_int_equal(violations.count, 3);
    h5py_violations_free(&violations);
    assert_int_equal(h5py_input_open(&file, path), EXIT_CORRUPT_INPUT);
    strcat(expected, " (and 2 more: fuel info --check lists them)");
    assert_string_equal(error_message(), expected);
    assert_int_equal(h5py_input_open(&file, "/nonexistent/x.hdf5"), EXIT_MISSING_INPUT);
    assert_null(file);
}

/* The whole question asked of a path: it opens and breaks nothing; no error is left behind. */
static void file_passes_check(void **state)
{
    (void)state;
    char path[200];
    snprintf(path, sizeof path, "%s/broken.hdf5", test_directory);
    struct h5py_violations violations = violations_of("iris.hdf5", "pass");
    h5py_violations_free(&violations);
    assert_true(h5py_file_passes_check(path));
    violations = violations_of(
        "iris.hdf5", "rows = f.attrs['split']; rows[0]['stop'] = 9; f.attrs['split'] = rows");
    assert_int_equal(violations.count, 1);
    h5py_violations_free(&violations);
    assert_false(h5py_file_passes_check(path));
    assert_false(h5py_file_passes_check("/nonexistent/iris.hdf5"));
    assert_false(h5py_file_passes_check(test_data_directory()));
    assert_int_equal(error_code(), EXIT_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_files_pass),
        cmocka_unit_test(missing_and_repeated_rows),
        cmocka_unit_test(span_past_the_end),
        cmocka_unit_test(reversed_span),
        cmocka_unit_test(dangling_reference),
        cmocka_unit_test(indices_out_of_range),
        cmocka_unit_test(indices_out_of_range_far_in),
        cmocka_unit_test(indices_not_integers),
        cmocka_unit_test(axis_label_count),
        cmocka_unit_test(missing_source),
        cmocka_unit_test(variable_length_element_count),
        cmocka_unit_test(variable_length_shape_rows_and_labels),
        cmocka_unit_test(shapes_scale_on_fixed_datasets),
        cmocka_unit_test(examples_too_large),
        cmocka_unit_test(contiguous_data_never_written),
        cmocka_unit_test(structure_reads_no_variable_length_example),
        cmocka_unit_test(input_verdict),
        cmocka_unit_test(file_passes_check),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
