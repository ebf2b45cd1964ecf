/* Unit tests of converters/conversion.c: a conversion request run into a published file that
   records the command line it is given, as typed, without the command around it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "converters/conversion.h"
#include "downloaders/dataset_registry.h"
#include "support.h"

#include <hdf5.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char raw_directory[4096];

static int setup(void **state)
{
    snprintf(raw_directory, sizeof raw_directory, "%s/raw/iris", test_data_directory());
    return test_directory_setup(state);
}

/* The root attribute NAME of PATH, a variable-length string (caller frees). */
static char *attribute(const char *path, const char *name)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    char *value = NULL, *copy = NULL;
    if (H5Aread(attribute, type, &value) >= 0 && value != NULL)
        copy = strdup(value);
    free(value);
    H5Tclose(type);
    H5Aclose(attribute);
    H5Fclose(file);
    return copy;
}

/* A request for Iris's converter, reading the fixture and writing into test_directory. */
static void iris_prepared(struct conversion_request *request, const struct typed_command *typed)
{
    conversion_request_init(request, &iris_dataset);
    request->input_directory = raw_directory;
    request->output_directory = test_directory;
    request->typed = typed;
}

static void test_inputs_list(void **state)
{
    (void)state;
    struct conversion_request request;
    conversion_request_init(&request, &iris_dataset);
    request.input_directory = "/raw";
    struct conversion_inputs inputs;
    conversion_inputs_list(&request, &inputs);
    assert_int_equal(inputs.count, 1);
    assert_string_equal(inputs.list[0], "/raw/iris.data");
    assert_ptr_equal(inputs.list[0], inputs.paths[0]);
}

/* The output name: the converter's own (after the options), or the one given with .hdf5 added. */
static void test_output_name(void **state)
{
    (void)state;
    struct conversion_request request;
    char name[64];
    conversion_request_init(&request, &mnist_dataset);
    conversion_output_name(&request, name, sizeof name);
    assert_string_equal(name, "mnist.hdf5");
    /* What the command runner does with --dtype bool: the converter's options struct, its dtype
       (the option's offset) set. */
    const struct converter *converter = mnist_dataset.converter;
    char chosen[64] = {0};
    assert_true(converter->options_size <= sizeof chosen);
    memcpy(chosen, converter->option_defaults, converter->options_size);
    *(const char **)(chosen + converter->options[0].offset) = "bool";
    request.options = chosen;
    conversion_output_name(&request, name, sizeof name);
    assert_string_equal(name, "mnist_bool.hdf5");
    request.output_name = "digits";
    conversion_output_name(&request, name, sizeof name);
    assert_string_equal(name, "digits.hdf5");
    request.output_name = "digits.h5";
    conversion_output_name(&request, name, sizeof name);
    assert_string_equal(name, "digits.h5");
}

static void test_records_the_typed_command(void **state)
{
    (void)state;
    char *argv[] = {"/opt/bin/fuel", "convert", "iris", "--directory=/elsewhere", NULL};
    struct typed_command typed = {4, argv};
    struct conversion_request request;
    iris_prepared(&request, &typed);
    request.output_name = "typed.hdf5";
    char path[4096], expected[4096];
    assert_int_equal(conversion_run(&request, path, sizeof path), EXIT_OK);
    test_path(expected, sizeof expected, test_directory, "typed.hdf5");
    assert_string_equal(path, expected);
    assert_string_equal(argv[3], "--directory=/elsewhere");
    char *command = attribute(path, "fuel_convert_command");
    assert_string_equal(command, "fuel convert iris --directory=/elsewhere");
    char *provenance = attribute(path, "fuel_provenance");
    json_t *document = json_loads(provenance, 0, NULL);
    char *recorded = json_dumps(json_object_get(document, "argv"), JSON_COMPACT);
    assert_string_equal(recorded,
                        "[\"/opt/bin/fuel\",\"convert\",\"iris\",\"--directory=/elsewhere\"]");
    free(recorded);
    json_decref(document);
    free(provenance);
    free(command);
}

/* The bytes of the file PATH (caller frees), *SIZE of them. */
static unsigned char *file_bytes(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    unsigned char *bytes = malloc(1 << 20);
    assert_non_null(bytes);
    *size = fread(bytes, 1, 1 << 20, file);
    assert_true(*size < (1 << 20));
    fclose(file);
    return bytes;
}

/* The converter's own name when none is given, and the same bytes on 1 thread and on 4. */
static void test_threads_change_no_byte(void **state)
{
    (void)state;
    char *argv[] = {"fuel-convert", "iris", NULL};
    struct typed_command typed = {2, argv};
    struct conversion_request request;
    iris_prepared(&request, &typed);
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    char one[4096], four[4096], expected[4096];
    request.threads = 1;
    assert_int_equal(conversion_run(&request, one, sizeof one), EXIT_OK);
    test_path(expected, sizeof expected, test_directory, "iris.hdf5");
    assert_string_equal(one, expected);
    request.threads = 4;
    request.output_name = "iris_four.hdf5";
    assert_int_equal(conversion_run(&request, four, sizeof four), EXIT_OK);
    unsetenv("SOURCE_DATE_EPOCH");
    size_t one_size, four_size;
    unsigned char *one_bytes = file_bytes(one, &one_size), *four_bytes = file_bytes(four, &four_size);
    assert_true(one_size > 0);
    assert_int_equal(one_size, four_size);
    assert_memory_equal(one_bytes, four_bytes, one_size);
    free(one_bytes);
    free(four_bytes);
}

/* An output directory is created as mkdir -p does; one that cannot be (a file in the way) is
   EXIT_WRITE, and nothing is written. */
static void test_output_directory_created_or_refused(void **state)
{
    (void)state;
    char *argv[] = {"fuel-convert", "iris", NULL};
    struct typed_command typed = {2, argv};
    struct conversion_request request;
    iris_prepared(&request, &typed);
    char plain[4096], blocked[4200], fresh[4200], path[4096] = "";
    test_path(plain, sizeof plain, test_directory, "plain");
    FILE *file = fopen(plain, "w");
    assert_non_null(file);
    fclose(file);
    snprintf(blocked, sizeof blocked, "%s/absent", plain);
    request.output_directory = blocked;
    assert_int_equal(conversion_run(&request, path, sizeof path), EXIT_WRITE);
    char message[4300];
    snprintf(message, sizeof message, "cannot create directory: %s: not a directory", plain);
    assert_string_equal(error_message(), message);
    error_clear();
    assert_string_equal(path, "");
    snprintf(fresh, sizeof fresh, "%s/new/deeper", test_directory);
    request.output_directory = fresh;
    assert_int_equal(conversion_run(&request, path, sizeof path), EXIT_OK);
    assert_int_equal(access(path, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_list),
        cmocka_unit_test(test_output_name),
        cmocka_unit_test(test_records_the_typed_command),
        cmocka_unit_test(test_threads_change_no_byte),
        cmocka_unit_test(test_output_directory_created_or_refused),
    };
    return cmocka_run_group_tests(tests, setup, test_directory_teardown);
}
