/* Unit tests of a raw file's state in a download directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/download/raw_file.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* md5 and sha256 of "hello\n". */
static const char md5[] = "b1946ac92492d2347c6235b4d2611184";
static const char sha256[] = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

static void file_write(const char *name, const char *text)
{
    char path[256];
    test_path(path, sizeof path, test_directory, name);
    test_file_write(path, text);
}

static struct raw_file inspect(uint64_t size, const char *checksum, bool verify)
{
    struct raw_file file;
    assert_int_equal(raw_file_inspect(test_directory, "data.gz", size, checksum, verify, &file),
                     EXIT_OK);
    return file;
}

static void missing_then_partial(void **state)
{
    (void)state;
    assert_int_equal(inspect(6, md5, true).state, RAW_MISSING);
    file_write("data.gz.part", "hel");
    struct raw_file file = inspect(6, md5, true);
    assert_int_equal(file.state, RAW_PARTIAL);
    assert_int_equal(file.size, 3);
    assert_string_equal(raw_file_state_name(file.state), "partial");
}

static void present_wrong_size_verified_corrupt(void **state)
{
    (void)state;
    file_write("data.gz", "hello\n");
    assert_int_equal(inspect(6, md5, false).state, RAW_PRESENT);
    assert_int_equal(inspect(0, NULL, true).state, RAW_PRESENT);
    assert_int_equal(inspect(7, md5, true).state, RAW_WRONG_SIZE);
    assert_int_equal(inspect(6, md5, true).state, RAW_VERIFIED);
    assert_int_equal(inspect(0, sha256, true).state, RAW_VERIFIED);
    assert_int_equal(inspect(6, "00000000000000000000000000000000", true).state, RAW_CORRUPT);
    assert_string_equal(raw_file_state_name(RAW_WRONG_SIZE), "wrong size");
    /* The file itself wins over a leftover .part. */
    assert_int_equal(inspect(6, md5, false).size, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_then_partial),
        cmocka_unit_test(present_wrong_size_verified_corrupt),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
