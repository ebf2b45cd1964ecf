/* Unit tests of the provenance inputs' verification: beside the file, in the data path, missing,
   different, malformed provenance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "info/input_verify.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char file_path[256], elsewhere[256];

/* sha256 of "hello\n". */
static const char sha256[] = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

static void file_write(const char *folder, const char *name, const char *text)
{
    char path[512];
    test_path(path, sizeof path, folder, name);
    test_file_write(path, text);
}

static char *provenance(void)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "{\"inputs\": [{\"name\": \"beside.gz\", \"size\": 6, \"sha256\": \"%s\"},"
             " {\"name\": \"far.gz\", \"size\": 6, \"sha256\": \"%s\"},"
             " {\"name\": \"changed.gz\", \"size\": 6, \"sha256\": \"%s\"},"
             " {\"name\": \"gone.gz\", \"size\": 6, \"sha256\": \"%s\"}]}",
             sha256, sha256, sha256, sha256);
    return text;
}

static void each_input_is_reported(void **state)
{
    (void)state;
    file_write(test_directory, "beside.gz", "hello\n");
    file_write(elsewhere, "far.gz", "hello\n");
    file_write(test_directory, "changed.gz", "hellO\n");
    char *data_path[] = {"/nonexistent", elsewhere};
    struct fuel_config config = {.data_path = {data_path, 2}};
    struct input_reports reports = {0};
    assert_int_equal(input_verify(provenance(), file_path, &config, &reports), EXIT_OK);
    assert_int_equal(reports.count, 4);
    assert_int_equal(reports.items[0].state, INPUT_MATCHING);
    assert_int_equal(reports.items[1].state, INPUT_MATCHING);
    char expected[512];
    snprintf(expected, sizeof expected, "%s/far.gz", elsewhere);
    assert_string_equal(reports.items[1].path, expected);
    assert_int_equal(reports.items[2].state, INPUT_DIFFERENT);
    assert_int_equal(reports.items[2].size, 6);
    assert_string_not_equal(reports.items[2].sha256, sha256);
    assert_int_equal(reports.items[3].state, INPUT_MISSING);
    assert_null(reports.items[3].path);
    assert_string_equal(input_state_name(INPUT_DIFFERENT), "different");
    input_reports_free(&reports);
    assert_int_equal(reports.count, 0);
}

static void malformed_provenance_is_corrupt_input(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "not json", "{\"tool\": \"fuel\"}", "{\"inputs\": [{\"name\": \"x\"}]}",
        "{\"inputs\": [{\"name\": \"../x\", \"size\": 1, \"sha256\": \"ab\"}]}",
    };
    struct fuel_config config = {0};
    for (size_t index = 0; index < sizeof texts / sizeof texts[0]; index++) {
        struct input_reports reports = {0};
        error_clear();
        assert_int_equal(input_verify(texts[index], file_path, &config, &reports),
                         EXIT_CORRUPT_INPUT);
        assert_non_null(strstr(error_message(), file_path));
        input_reports_free(&reports);
    }
}

static int make_directory(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(file_path, sizeof file_path, test_directory, "dataset.hdf5");
    test_path(elsewhere, sizeof elsewhere, test_directory, "elsewhere");
    return mkdir(elsewhere, 0777);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_input_is_reported),
        cmocka_unit_test(malformed_provenance_is_corrupt_input),
    };
    return cmocka_run_group_tests(tests, make_directory, test_directory_teardown);
}
