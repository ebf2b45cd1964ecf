/* Unit tests of datasets/conversion.c: a converter run into a published file that records the
   command line it is given, as typed, without the command around it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "datasets/conversion.h"
#include "datasets/dataset.h"
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

/* Iris's converter, its arguments reading the fixture and writing into test_directory, and its
   inputs. */
static const struct converter *iris_prepared(struct converter_arguments *arguments,
                                             struct conversion_inputs *inputs)
{
    *arguments = (struct converter_arguments){.input_directory = raw_directory,
                                              .scratch_directory = test_directory};
    converter_arguments_init(arguments, &iris_dataset);
    conversion_inputs_list(arguments, inputs);
    return &iris_dataset.converter;
}

static void test_inputs_list(void **state)
{
    (void)state;
    struct converter_arguments arguments = {.input_directory = "/raw"};
    converter_arguments_init(&arguments, &iris_dataset);
    struct conversion_inputs inputs;
    conversion_inputs_list(&arguments, &inputs);
    assert_int_equal(inputs.count, 1);
    assert_string_equal(inputs.list[0], "/raw/iris.data");
    assert_ptr_equal(inputs.list[0], inputs.paths[0]);
}

static void test_records_the_typed_command(void **state)
{
    (void)state;
    struct converter_arguments arguments;
    struct conversion_inputs inputs;
    const struct converter *iris = iris_prepared(&arguments, &inputs);
    char *argv[] = {"/opt/bin/fuel", "convert", "iris", "--directory=/elsewhere", NULL};
    struct typed_command typed = {4, argv};
    char path[4096], expected[4096];
    assert_int_equal(conversion_write(iris, &arguments, inputs.list, inputs.count,
                                      test_directory, "typed.hdf5", &typed, path, sizeof path),
                     EXIT_OK);
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

static void test_missing_directory_writes_nothing(void **state)
{
    (void)state;
    struct converter_arguments arguments;
    struct conversion_inputs inputs;
    const struct converter *iris = iris_prepared(&arguments, &inputs);
    char *argv[] = {"fuel-convert", "iris", NULL};
    struct typed_command typed = {2, argv};
    char missing[4096], path[4096] = "";
    test_path(missing, sizeof missing, test_directory, "absent");
    assert_int_equal(conversion_write(iris, &arguments, inputs.list, inputs.count, missing,
                                      "iris.hdf5", &typed, path, sizeof path),
                     EXIT_WRITE);
    assert_string_equal(path, "");
    assert_int_not_equal(access(missing, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_list),
        cmocka_unit_test(test_records_the_typed_command),
        cmocka_unit_test(test_missing_directory_writes_nothing),
    };
    return cmocka_run_group_tests(tests, setup, test_directory_teardown);
}
