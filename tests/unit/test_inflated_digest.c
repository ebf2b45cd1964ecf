/* Unit tests of the digest of a file's inflated content: gzipped, plain, corrupt, absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/gzip/inflated_digest.h"
#include "support.h"

#include <stdio.h>
#include <string.h>

/* sha256 of "hello\n", and "hello\n" gzipped with no name (gzip -n). */
static const char sha256[] = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
static const unsigned char gzipped[] = {
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
    0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00};

static void file_write(const char *name, const unsigned char *bytes, size_t size, char *path)
{
    test_path(path, 256, test_directory, name);
    FILE *stream = fopen(path, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(bytes, 1, size, stream), size);
    assert_int_equal(fclose(stream), 0);
}

static void gzipped_and_plain_files_give_their_content(void **state)
{
    (void)state;
    char path[256], hex[HASH_HEX_SIZE];
    uint64_t size = 0;
    file_write("hello.gz", gzipped, sizeof gzipped, path);
    assert_int_equal(inflated_digest(path, hex, &size), EXIT_OK);
    assert_string_equal(hex, sha256);
    assert_int_equal(size, 6);
    file_write("hello", (const unsigned char *)"hello\n", 6, path);
    size = 0;
    assert_int_equal(inflated_digest(path, hex, &size), EXIT_OK);
    assert_string_equal(hex, sha256);
    assert_int_equal(size, 6);
}

static void corrupt_and_absent_files_fail(void **state)
{
    (void)state;
    char path[256], hex[HASH_HEX_SIZE], expected[400];
    uint64_t size;
    file_write("cut.gz", gzipped, sizeof gzipped - 3, path);
    assert_int_equal(inflated_digest(path, hex, &size), EXIT_CORRUPT_INPUT);
    snprintf(expected, sizeof expected, "cannot inflate: %s: unexpected end of file", path);
    assert_string_equal(error_message(), expected);
    test_path(path, sizeof path, test_directory, "absent.gz");
    assert_int_equal(inflated_digest(path, hex, &size), EXIT_MISSING_INPUT);
    snprintf(expected, sizeof expected, "cannot read: %s: No such file or directory", path);
    assert_string_equal(error_message(), expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gzipped_and_plain_files_give_their_content),
        cmocka_unit_test(corrupt_and_absent_files_fail),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
