/* Unit tests of the dataset records and their registry: every converter reads files its dataset
   downloads, the one lookup by name and format, manifests added after the built-ins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "converters/converter.h"
#include "downloaders/dataset_registry.h"
#include "support.h"

#include <stdio.h>
#include <string.h>

static size_t builtin_count(void)
{
    size_t count = 0;
    while (datasets[count] != NULL)
        count++;
    return count;
}

/* Every input of every built-in converter is a file of its dataset, each read once, and every
   file the dataset downloads is read: nothing fetched in vain, nothing read that is not fetched. */
static void converter_inputs_are_downloaded_files(void **state)
{
    (void)state;
    assert_int_equal(builtin_count(), 16);
    for (size_t index = 0; datasets[index] != NULL; index++) {
        const struct dataset *dataset = datasets[index];
        const struct converter *converter = dataset->converter;
        bool read[CONVERTER_MAX_INPUTS] = {false};
        assert_true(dataset_converts(dataset));
        assert_null(dataset->manifest);
        assert_int_equal(converter->input_count, dataset->file_count);
        for (size_t input = 0; input < converter->input_count; input++) {
            size_t file = converter->inputs[input];
            assert_in_range(file, 0, dataset->file_count - 1);
            assert_false(read[file]);
            read[file] = true;
        }
    }
}

/* The names the commands check and hash are the names of the files the downloader writes. */
static void input_names_and_paths_come_from_the_file_table(void **state)
{
    (void)state;
    for (size_t index = 0; datasets[index] != NULL; index++) {
        const struct dataset *dataset = datasets[index];
        struct converter_inputs inputs = {0};
        struct converter_arguments arguments = {.dataset = dataset, .input_directory = "/raw"};
        converter_list_inputs(dataset, &inputs);
        assert_int_equal(inputs.count, dataset->converter->input_count);
        for (size_t input = 0; input < inputs.count; input++) {
            size_t file = dataset->converter->inputs[input];
            const char *name = dataset->files[file].name;
            char path[256], expected[256];
            assert_string_equal(inputs.names[input], name);
            converter_input_path(&arguments, file, path, sizeof path);
            snprintf(expected, sizeof expected, "/raw/%s", name);
            assert_string_equal(path, expected);
        }
    }
}

static void mnist_inputs_in_conversion_order(void **state)
{
    (void)state;
    static const char *const expected[] = {
        "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
        "t10k-labels-idx1-ubyte.gz"};
    const char *const names[] = {"mnist", "fashion_mnist"};
    for (size_t dataset_index = 0; dataset_index < 2; dataset_index++) {
        const struct dataset *dataset;
        assert_int_equal(dataset_find(names[dataset_index], NULL, &dataset), DATASET_FOUND);
        struct converter_inputs inputs = {0};
        converter_list_inputs(dataset, &inputs);
        assert_int_equal(inputs.count, 4);
        for (size_t input = 0; input < 4; input++)
            assert_string_equal(inputs.names[input], expected[input]);
    }
}

/* --dtype changes the output name only: the inputs stay MNIST's four files. */
static void mnist_dtype_names_the_output(void **state)
{
    (void)state;
    const struct dataset *dataset;
    assert_int_equal(dataset_find("mnist", NULL, &dataset), DATASET_FOUND);
    struct converter_arguments arguments = {.dataset = dataset, .input_directory = ".",
                                            .options = dataset->converter->option_defaults};
    char name[64];
    converter_name_output(dataset->converter, &arguments, name, sizeof name);
    assert_string_equal(name, "mnist.hdf5");
    const struct converter *converter = dataset->converter;
    assert_int_equal(converter->option_count, 1);
    const struct command_option *dtype = &converter->options[0];
    assert_string_equal(dtype->long_name, "dtype");
    assert_string_equal(dtype->choices, "uint8 float32 float64 bool");
    /* What the command runner does: the defaults, then the value stored at the option's offset. */
    char chosen[64] = {0};
    assert_true(converter->options_size <= sizeof chosen);
    memcpy(chosen, converter->option_defaults, converter->options_size);
    assert_string_equal(*(const char **)(chosen + dtype->offset), "uint8");
    *(const char **)(chosen + dtype->offset) = "float32";
    arguments.options = chosen;
    converter_name_output(converter, &arguments, name, sizeof name);
    assert_string_equal(name, "mnist_float32.hdf5");
}

static void lookup_by_name_and_format(void **state)
{
    (void)state;
    const struct dataset *dataset = datasets[0];
    assert_int_equal(dataset_find("svhn", "2", &dataset), DATASET_FOUND);
    assert_string_equal(dataset->name, "svhn");
    assert_string_equal(dataset->variant, "2");
    assert_string_equal(dataset->files[0].name, "train_32x32.mat");
    assert_int_equal(dataset_find("svhn", "1", &dataset), DATASET_FOUND);
    assert_string_equal(dataset->files[2].name, "extra.tar.gz");
    assert_int_equal(dataset_find("svhn", NULL, &dataset), DATASET_FORMAT_MISSING);
    assert_null(dataset);
    assert_int_equal(dataset_find("svhn", "3", &dataset), DATASET_FORMAT_UNKNOWN);
    assert_null(dataset);
    assert_int_equal(dataset_find("iris", "1", &dataset), DATASET_FORMAT_UNEXPECTED);
    assert_null(dataset);
    assert_int_equal(dataset_find("imagenet", NULL, &dataset), DATASET_UNKNOWN);
    assert_null(dataset);
    char formats[16];
    dataset_format_list("svhn", " or ", formats, sizeof formats);
    assert_string_equal(formats, "1 or 2");
    dataset_format_list("iris", ", ", formats, sizeof formats);
    assert_string_equal(formats, "");
    assert_true(dataset_has_formats("svhn"));
    assert_false(dataset_has_formats("cifar10"));
    assert_false(dataset_has_formats("imagenet"));
}

/* CalTech 101 Silhouettes' sizes are formats, each with its own file and output name, as Fuel's. */
static void silhouettes_sizes_name_their_files(void **state)
{
    (void)state;
    const char *const sizes[] = {"16", "28"};
    for (size_t index = 0; index < 2; index++) {
        const struct dataset *dataset;
        assert_int_equal(dataset_find("caltech101_silhouettes", sizes[index], &dataset),
                         DATASET_FOUND);
        char expected[64], name[64];
        snprintf(expected, sizeof expected, "caltech101_silhouettes_%s_split1.mat", sizes[index]);
        assert_string_equal(dataset->files[0].name, expected);
        struct converter_arguments arguments = {.dataset = dataset, .input_directory = "."};
        converter_name_output(dataset->converter, &arguments, name, sizeof name);
        snprintf(expected, sizeof expected, "caltech101_silhouettes%s.hdf5", sizes[index]);
        assert_string_equal(name, expected);
    }
    char formats[16];
    dataset_format_list("caltech101_silhouettes", " or ", formats, sizeof formats);
    assert_string_equal(formats, "16 or 28");
}

/* A name either has formats in every record or in none, and a (name, format) pair is unique. */
static void records_are_unique(void **state)
{
    (void)state;
    for (size_t first = 0; datasets[first] != NULL; first++)
        for (size_t second = first + 1; datasets[second] != NULL; second++) {
            const struct dataset *one = datasets[first], *other = datasets[second];
            if (strcmp(one->name, other->name) != 0)
                continue;
            assert_non_null(one->variant);
            assert_non_null(other->variant);
            assert_string_not_equal(one->variant, other->variant);
        }
}

/* Writes TEXT as the manifest NAME into PATH (SIZE bytes) and loads it. */
static int manifest_load_text(const char *name, const char *text, char *path, size_t size)
{
    test_path(path, size, test_directory, name);
    test_file_write(path, text);
    char *entries[] = {path};
    return dataset_registry_load(entries, 1);
}

static void manifests_follow_the_builtins(void **state)
{
    (void)state;
    char path[512];
    const char *text = "{\"datasets\": {\"toy\": {\"formats\": {\"a\": {\"files\": [{\"name\": "
                       "\"toy.bin\", \"urls\": [\"http://example.org/toy.bin\"]}]}}}}}";
    assert_int_equal(manifest_load_text("toy.json", text, path, sizeof path), EXIT_OK);
    const struct dataset *const *list = dataset_list();
    size_t count = builtin_count();
    for (size_t index = 0; index < count; index++)
        assert_ptr_equal(list[index], datasets[index]);
    assert_non_null(list[count]);
    assert_null(list[count + 1]);
    const struct dataset *toy;
    assert_int_equal(dataset_find("toy", "a", &toy), DATASET_FOUND);
    assert_ptr_equal(toy, list[count]);
    assert_false(dataset_converts(toy));
    assert_string_equal(toy->manifest, path);
    assert_string_equal(toy->files[0].name, "toy.bin");
    assert_int_equal(dataset_find("toy", NULL, &toy), DATASET_FORMAT_MISSING);
    dataset_registry_free();
    assert_ptr_equal(dataset_list(), datasets);
    assert_int_equal(dataset_find("toy", "a", &toy), DATASET_UNKNOWN);
}

static void manifest_clashing_with_a_builtin(void **state)
{
    (void)state;
    char path[512];
    const char *text = "{\"datasets\": {\"iris\": {\"files\": [{\"name\": \"iris.data\", "
                       "\"urls\": [\"http://example.org/iris.data\"]}]}}}";
    assert_int_equal(manifest_load_text("iris.json", text, path, sizeof path), EXIT_USAGE);
    char expected[1024];
    snprintf(expected, sizeof expected,
             "name clash: %s: $.datasets.iris: iris is a built-in dataset", path);
    assert_string_equal(error_message(), expected);
    error_clear();
    dataset_registry_free();
    const struct dataset *iris;
    assert_int_equal(dataset_find("iris", NULL, &iris), DATASET_FOUND);
    assert_null(iris->manifest);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(converter_inputs_are_downloaded_files),
        cmocka_unit_test(input_names_and_paths_come_from_the_file_table),
        cmocka_unit_test(mnist_inputs_in_conversion_order),
        cmocka_unit_test(mnist_dtype_names_the_output),
        cmocka_unit_test(lookup_by_name_and_format),
        cmocka_unit_test(silhouettes_sizes_name_their_files),
        cmocka_unit_test(records_are_unique),
        cmocka_unit_test(manifests_follow_the_builtins),
        cmocka_unit_test(manifest_clashing_with_a_builtin),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
