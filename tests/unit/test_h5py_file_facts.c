/* Unit tests of the one-question file facts: passes the checks, creation time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/hdf5/h5py_file_facts.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char path[256];

static const char *fixtures(void)
{
    const char *value = getenv("FUEL_FIXTURES");
    return value != NULL ? value : "../shared/fixtures";
}

/* Copies the reference iris.hdf5 to PATH and runs the Python line LINE on it as `f`. */
static void iris_copy(const char *line)
{
    char command[1024];
    snprintf(command, sizeof command,
             "cp %s/expected/iris.hdf5 %s && chmod u+w %s && /usr/bin/python3 -c "
             "\"import sys, h5py; f = h5py.File(sys.argv[1], 'r+'); %s; f.close()\" %s",
             fixtures(), path, path, line, path);
    assert_int_equal(system(command), 0);
}

static void sound_and_broken_files(void **state)
{
    (void)state;
    iris_copy("pass");
    assert_true(h5py_file_passes_check(path));
    iris_copy("rows = f.attrs['split']; rows[0]['stop'] = 9; f.attrs['split'] = rows");
    assert_false(h5py_file_passes_check(path));
    assert_false(h5py_file_passes_check("/nonexistent/iris.hdf5"));
    assert_false(h5py_file_passes_check(fixtures()));
    assert_int_equal(error_code(), EXIT_OK);
}

static void creation_time(void **state)
{
    (void)state;
    iris_copy("f.attrs['fuel_provenance'] = '{\\\"created\\\": \\\"2023-11-14T22:13:20Z\\\"}'");
    char *created = h5py_file_created(path);
    assert_non_null(created);
    assert_string_equal(created, "2023-11-14T22:13:20Z");
    free(created);
    iris_copy("pass");
    assert_null(h5py_file_created(path));
    assert_null(h5py_file_created("/nonexistent/iris.hdf5"));
    assert_int_equal(error_code(), EXIT_OK);
}

static int make_directory(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(path, sizeof path, test_directory, "iris.hdf5");
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sound_and_broken_files),
        cmocka_unit_test(creation_time),
    };
    return cmocka_run_group_tests(tests, make_directory, test_directory_teardown);
}
