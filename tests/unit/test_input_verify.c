/* Unit tests of the provenance inputs' verification: found in the directories given, in order,
   missing, different, malformed provenance; a FIFO of the recorded name never blocks; the
   folders searched in order and the exit code the states decide. */
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
#include <unistd.h>

static char file_path[256], elsewhere[256];

/* sha256 of "hello\n", "world\n" and "gone\n". */
static const char sha256[] = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
static const char world[] = "e258d248fda94c63753607f7c4494ee0fcbe92f1a76bfdac795c9d84101eb317";
static const char gone[] = "4b9f2c32577beb1ebc8ab2a1e226faaa9176a81cd4eedbaa22f8a0db919972b5";

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
             " {\"name\": \"gone.gz\", \"size\": 5, \"sha256\": \"%s\"}]}",
             sha256, sha256, world, gone);
    return text;
}

static void each_input_is_reported(void **state)
{
    (void)state;
    file_write(test_directory, "beside.gz", "hello\n");
    file_write(elsewhere, "far.gz", "hello\n");
    file_write(test_directory, "changed.gz", "hellO\n");
    const char *directories[] = {test_directory, "/nonexistent", elsewhere};
    struct input_reports reports = {0};
    assert_int_equal(input_verify(provenance(), file_path, directories, 3, &reports), EXIT_OK);
    assert_int_equal(reports.count, 4);
    assert_int_equal(reports.items[0].state, INPUT_MATCHING);
    assert_int_equal(reports.items[1].state, INPUT_MATCHING);
    char expected[512];
    snprintf(expected, sizeof expected, "%s/far.gz", elsewhere);
    assert_string_equal(reports.items[1].path, expected);
    assert_int_equal(reports.items[2].state, INPUT_DIFFERENT);
    assert_int_equal(reports.items[2].size, 6);
    assert_string_not_equal(reports.items[2].sha256, world);
    assert_int_equal(reports.items[3].state, INPUT_MISSING);
    assert_null(reports.items[3].path);
    assert_string_equal(input_state_name(INPUT_DIFFERENT), "different");
    input_reports_free(&reports);
    assert_int_equal(reports.count, 0);
}

/* A FIFO under the recorded name, with no writer: not opened to block, not read; not a regular
   file, named with what it is. */
static void fifo_is_not_read(void **state)
{
    (void)state;
    char fifo[512];
    test_path(fifo, sizeof fifo, elsewhere, "gone.gz");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *directories[] = {elsewhere};
    struct input_reports reports = {0};
    assert_int_equal(input_verify(provenance(), file_path, directories, 1, &reports), EXIT_OK);
    assert_int_equal(reports.items[3].state, INPUT_NOT_REGULAR);
    assert_string_equal(reports.items[3].path, fifo);
    assert_string_equal(reports.items[3].kind, "a FIFO");
    assert_string_equal(input_state_name(INPUT_NOT_REGULAR), "not a regular file");
    input_reports_free(&reports);
    unlink(fifo);
}

static void malformed_provenance_is_corrupt_input(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "not json", "{\"tool\": \"fuel\"}", "{\"inputs\": [{\"name\": \"x\"}]}",
        "{\"inputs\": [{\"name\": \"\", \"size\": 1, \"sha256\": \"ab\"}]}",
    };
    const char *directories[] = {test_directory};
    for (size_t index = 0; index < sizeof texts / sizeof texts[0]; index++) {
        struct input_reports reports = {0};
        error_clear();
        assert_int_equal(input_verify(texts[index], file_path, directories, 1, &reports),
                         EXIT_CORRUPT_INPUT);
        assert_non_null(strstr(error_message(), file_path));
        input_reports_free(&reports);
    }
}

static void folders_are_searched_in_order(void **state)
{
    (void)state;
    const char *given[] = {"raw", "more"}, *recorded[] = {"/recorded"};
    char *data_path[] = {"/data"};
    struct fuel_config config = {.data_path = {data_path, 1}};
    char beside[] = "out/files/mnist.hdf5";
    size_t count = 0;
    struct input_directories folders = {given, 2, recorded, 1};
    const char **list = input_directories_list(&folders, beside, &config, &count);
    assert_non_null(list);
    assert_int_equal(count, 5);
    const char *expected[] = {"raw", "more", "out/files", "/data", "/recorded"};
    for (size_t index = 0; index < count; index++)
        assert_string_equal(list[index], expected[index]);
    free(list);
    folders.recorded_count = 0;
    list = input_directories_list(&folders, beside, &config, &count);
    assert_int_equal(count, 4);
    free(list);
}

static void a_difference_outranks_what_is_not_a_file_then_a_missing_input(void **state)
{
    (void)state;
    struct input_report items[4] = {{.state = INPUT_MATCHING}, {.state = INPUT_MISSING},
                                    {.state = INPUT_NOT_REGULAR, .path = "raw/b.gz",
                                     .kind = "a directory"},
                                    {.state = INPUT_DIFFERENT}};
    struct input_reports reports = {items, 4};
    assert_int_equal(input_reports_outcome("a.hdf5", &reports), EXIT_CHECKSUM);
    assert_string_equal(error_message(),
                        "inputs differ from the provenance: a.hdf5: 1 different, 1 missing");
    reports.count = 3;
    assert_int_equal(input_reports_outcome("a.hdf5", &reports), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "not a regular file: raw/b.gz: exists but is a directory");
    reports.count = 2;
    assert_int_equal(input_reports_outcome("a.hdf5", &reports), EXIT_MISSING_INPUT);
    assert_string_equal(error_message(), "inputs not found: a.hdf5: 1 missing");
    reports.count = 1;
    assert_int_equal(input_reports_outcome("a.hdf5", &reports), EXIT_OK);
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
        cmocka_unit_test(fifo_is_not_read),
        cmocka_unit_test(malformed_provenance_is_corrupt_input),
        cmocka_unit_test(folders_are_searched_in_order),
        cmocka_unit_test(a_difference_outranks_what_is_not_a_file_then_a_missing_input),
    };
    return cmocka_run_group_tests(tests, make_directory, test_directory_teardown);
}
