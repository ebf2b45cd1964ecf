/* Unit tests of cutting a fixture from an H5PYDataset file: the plan (first N, random N, named
   splits, refusals), reading back, and the cut written and read again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "fixtures/h5py_cut.h"
#include "common/h5py/h5py_writer.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expected_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/expected/%s", test_data_directory(), name);
}

static struct cut_plan *plan_of(const char *name, const struct cut_request *request)
{
    char path[4096];
    expected_path(path, sizeof path, name);
    struct cut_plan *plan = NULL;
    assert_int_equal(cut_plan_open(&plan, path, request), EXIT_OK);
    return plan;
}

static size_t source_index(const struct cut_plan *plan, const char *name)
{
    for (size_t source = 0; source < cut_plan_source_count(plan); source++)
        if (strcmp(cut_plan_source(plan, source)->name, name) == 0)
            return source;
    fail_msg("no source %s", name);
    return 0;
}

static void test_first_examples_of_each_split(void **state)
{
    (void)state;
    struct cut_request request = {.examples = 3, .named_count = 1, .split_names = {"test"},
                                  .split_examples = {5}};
    struct cut_plan *plan = plan_of("mnist.hdf5", &request);
    struct cut_request everything = {.examples = 100};
    struct cut_plan *whole = plan_of("mnist.hdf5", &everything);
    assert_int_equal(cut_plan_split_count(plan), 2);
    size_t features = source_index(plan, "features");
    const struct cut_source *source = cut_plan_source(plan, features);
    assert_string_equal(source->dtype, "uint8");
    assert_int_equal(source->rank, 4);
    assert_int_equal(source->example_bytes, 784);
    /* Fuel's mnist.hdf5 has 12 training and 2 test examples: test keeps its 2. */
    assert_int_equal(source->shape[0], 5);
    unsigned char cut[5 * 784], all[14 * 784];
    assert_int_equal(cut_plan_read(plan, features, 0, 5, cut), EXIT_OK);
    assert_int_equal(cut_plan_read(whole, features, 0, 14, all), EXIT_OK);
    for (size_t split = 0; split < 2; split++) {
        uint64_t start, stop, whole_start, whole_stop;
        assert_true(cut_plan_range(plan, features, split, &start, &stop));
        assert_true(cut_plan_range(whole, features, split, &whole_start, &whole_stop));
        assert_int_equal(stop - start, strcmp(cut_plan_split_name(plan, split), "test") ? 3 : 2);
        assert_memory_equal(cut + start * 784, all + whole_start * 784, (stop - start) * 784);
    }
    assert_non_null(strstr(cut_plan_parent_command(plan), "mnist"));
    cut_plan_close(plan);
    cut_plan_close(whole);
}

static void test_shuffle_is_a_reproducible_sample(void **state)
{
    (void)state;
    struct cut_request request = {.examples = 4, .shuffle = true, .seed = 5};
    struct cut_plan *first = plan_of("iris.hdf5", &request), *second = plan_of("iris.hdf5", &request);
    request.seed = 6;
    struct cut_plan *other = plan_of("iris.hdf5", &request);
    size_t features = source_index(first, "features");
    float one[4 * 4], two[4 * 4], three[4 * 4];
    assert_int_equal(cut_plan_read(first, features, 0, 4, one), EXIT_OK);
    assert_int_equal(cut_plan_read(second, features, 0, 4, two), EXIT_OK);
    assert_int_equal(cut_plan_read(other, features, 0, 4, three), EXIT_OK);
    assert_memory_equal(one, two, sizeof one);
    assert_memory_not_equal(one, three, sizeof one);
    cut_plan_close(first);
    cut_plan_close(second);
    cut_plan_close(other);
}

static void test_variable_length_examples(void **state)
{
    (void)state;
    struct cut_request request = {.examples = 2};
    struct cut_plan *plan = plan_of("svhn_format_1.hdf5", &request);
    size_t features = source_index(plan, "features");
    const struct cut_source *source = cut_plan_source(plan, features);
    assert_true(source->variable_length);
    assert_int_equal(source->example_rank, 3);
    assert_string_equal(source->shape_labels[0], "channel");
    assert_int_equal(source->shape[0], 6);
    void *data = NULL;
    size_t capacity = 0;
    uint16_t shape[CUT_MAX_RANK];
    size_t length = 0;
    assert_int_equal(cut_plan_read_variable(plan, features, 5, &data, &capacity, shape, &length),
                     EXIT_OK);
    assert_int_equal(shape[0], 3);
    assert_int_equal(length, (size_t)shape[0] * shape[1] * shape[2]);
    assert_true(capacity >= (size_t)shape[0] * shape[1] * shape[2]);
    free(data);
    cut_plan_close(plan);
}

static void test_refusals(void **state)
{
    (void)state;
    struct cut_request request = {.examples = 2, .named_count = 1, .split_names = {"valid"},
                                  .split_examples = {1}};
    char path[4096];
    struct cut_plan *plan = NULL;
    expected_path(path, sizeof path, "mnist.hdf5");
    assert_int_equal(cut_plan_open(&plan, path, &request), EXIT_USAGE);
    assert_null(plan);
    char expected[4200];
    snprintf(expected, sizeof expected, "no split valid: %s; its splits: test, train", path);
    assert_string_equal(error_message(), expected);
    request.named_count = 0;
    test_file_make("not an HDF5 file");
    assert_int_equal(cut_plan_open(&plan, test_file, &request), EXIT_CORRUPT_INPUT);
    test_file_remove();
    assert_int_equal(cut_plan_open(&plan, "/nonexistent/file.hdf5", &request), EXIT_MISSING_INPUT);
}

/* Writes the cut of NAME into the test directory, then plans a cut of that file keeping all. */
static struct cut_plan *written_cut(const char *name, uint64_t examples)
{
    struct cut_request request = {.examples = examples};
    struct cut_plan *plan = plan_of(name, &request);
    char path[4096];
    test_path(path, sizeof path, test_directory, name);
    struct h5py_writer *writer = NULL;
    assert_int_equal(h5py_writer_create(&writer, path), EXIT_OK);
    assert_int_equal(h5py_cut_write(plan, writer), EXIT_OK);
    struct h5py_attributes attributes = {"fuel-fixture --from", "0", NULL, NULL};
    assert_int_equal(h5py_writer_finish(writer, &attributes), EXIT_OK);
    cut_plan_close(plan);
    struct cut_request everything = {.examples = 1000};
    struct cut_plan *again = NULL;
    assert_int_equal(cut_plan_open(&again, path, &everything), EXIT_OK);
    return again;
}

static void test_cut_written_and_read_again(void **state)
{
    (void)state;
    struct cut_plan *again = written_cut("svhn_format_2.hdf5", 3);
    size_t targets = source_index(again, "targets");
    assert_int_equal(cut_plan_source(again, targets)->shape[0], 9);
    assert_string_equal(cut_plan_source(again, targets)->dtype, "float64");
    assert_string_equal(cut_plan_source(again, targets)->axis_labels[1], "index");
    assert_int_equal(cut_plan_split_examples(again, 2), 3);
    cut_plan_close(again);
    again = written_cut("svhn_format_1.hdf5", 1);
    size_t labels = source_index(again, "bbox_labels");
    assert_true(cut_plan_source(again, labels)->variable_length);
    assert_int_equal(cut_plan_source(again, labels)->shape[0], 3);
    cut_plan_close(again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_examples_of_each_split),
        cmocka_unit_test(test_shuffle_is_a_reproducible_sample),
        cmocka_unit_test(test_variable_length_examples),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cut_written_and_read_again),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
