/* Unit tests of a raw file's state in a download directory, verified by its bytes or content. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/download/raw_file.h"
#include "common/formats/gzip/inflated_digest.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* "hello\n" gzipped with the file name in the header (flag 0x08), as a publisher's, and
   without it (flags 0x00), as Debian's: other bytes, the same content. */
static const unsigned char named[] = {
    0x1f, 0x8b, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x68, 0x65, 0x6c, 0x6c,
    0x6f, 0x00, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36,
    0x06, 0x00, 0x00, 0x00};
static const unsigned char unnamed[] = {
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
    0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00};

static void bytes_write(const char *name, const unsigned char *bytes, size_t size)
{
    char path[256];
    test_path(path, sizeof path, test_directory, name);
    FILE *stream = fopen(path, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(bytes, 1, size, stream), size);
    assert_int_equal(fclose(stream), 0);
}

static struct raw_file inspect_expecting(const struct raw_file_expectation *expected, bool verify)
{
    struct raw_file file;
    assert_int_equal(raw_file_inspect(test_directory, "data.gz", expected, verify, &file),
                     EXIT_OK);
    return file;
}

static struct raw_file inspect(uint64_t size, const char *checksum, bool verify)
{
    struct raw_file_expectation expected = {.size = size, .checksum = checksum};
    return inspect_expecting(&expected, verify);
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

/* The published file is NAMED (32 bytes, its md5 below); the content is "hello\n". */
static struct raw_file inspect_content(const char *content_sha256, bool verify)
{
    struct raw_file_expectation expected = {
        .size = sizeof named, .checksum = "c00032bce97084dee32c863d1ada0c53",
        .content_size = 6, .content_sha256 = content_sha256, .content_digest = inflated_digest};
    return inspect_expecting(&expected, verify);
}

static void other_bytes_of_the_same_content(void **state)
{
    (void)state;
    bytes_write("data.gz", unnamed, sizeof unnamed);
    /* Of another size, but its content may match: present until verified. */
    assert_int_equal(inspect_content(sha256, false).state, RAW_PRESENT);
    struct raw_file file = inspect_content(sha256, true);
    assert_int_equal(file.state, RAW_CONTENT_VERIFIED);
    assert_int_equal(file.size, sizeof unnamed);
    assert_string_equal(raw_file_state_name(file.state), "verified by content");
    assert_int_equal(inspect_content(md5 /* not the content's */, true).state, RAW_WRONG_SIZE);
    /* Without the content known, the size decides as before. */
    assert_int_equal(inspect(sizeof named, NULL, false).state, RAW_WRONG_SIZE);
}

static void same_size_other_bytes(void **state)
{
    (void)state;
    unsigned char copy[sizeof named];
    memcpy(copy, named, sizeof named);
    copy[4] = 0x01; /* another modification time: other bytes of the same size and content */
    bytes_write("data.gz", copy, sizeof copy);
    assert_int_equal(inspect_content(sha256, true).state, RAW_CONTENT_VERIFIED);
    copy[20] ^= 0xff; /* the deflate stream itself: no content */
    bytes_write("data.gz", copy, sizeof copy);
    assert_int_equal(inspect_content(sha256, true).state, RAW_CORRUPT);
}

static void content_matches_needs_everything_known(void **state)
{
    (void)state;
    bytes_write("data.gz", named, sizeof named);
    assert_int_equal(inspect_content(sha256, true).state, RAW_VERIFIED); /* by its bytes */
    char path[256];
    test_path(path, sizeof path, test_directory, "data.gz");
    struct raw_file_expectation expected = {.content_size = 6, .content_sha256 = sha256,
                                            .content_digest = inflated_digest};
    assert_true(raw_file_content_matches(path, &expected));
    expected.content_size = 7;
    assert_false(raw_file_content_matches(path, &expected));
    expected.content_size = 0;
    assert_false(raw_file_content_matches(path, &expected));
    expected = (struct raw_file_expectation){.content_size = 6, .content_sha256 = sha256};
    assert_false(raw_file_content_matches(path, &expected));
    test_path(path, sizeof path, test_directory, "absent.gz");
    expected.content_digest = inflated_digest;
    assert_false(raw_file_content_matches(path, &expected));
    assert_int_equal(error_code(), EXIT_OK);
}

/* A directory at the name, or a FIFO at the .part of an absent file: not a regular file, what
   stands there named, never opened. */
static void directory_or_fifo_not_regular(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "folder.gz");
    assert_int_equal(mkdir(path, 0755), 0);
    test_path(path, sizeof path, test_directory, "pipe.gz.part");
    assert_int_equal(mkfifo(path, 0644), 0);
    struct raw_file_expectation expected = {.size = 6, .checksum = md5};
    struct raw_file file;
    assert_int_equal(raw_file_inspect(test_directory, "folder.gz", &expected, true, &file),
                     EXIT_OK);
    assert_int_equal(file.state, RAW_NOT_REGULAR);
    assert_string_equal(file.kind, "a directory");
    assert_false(file.part);
    assert_string_equal(raw_file_state_name(file.state), "not a regular file");
    assert_int_equal(raw_file_inspect(test_directory, "pipe.gz", &expected, true, &file),
                     EXIT_OK);
    assert_int_equal(file.state, RAW_NOT_REGULAR);
    assert_string_equal(file.kind, "a FIFO");
    assert_true(file.part);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_then_partial),
        cmocka_unit_test(present_wrong_size_verified_corrupt),
        cmocka_unit_test(other_bytes_of_the_same_content),
        cmocka_unit_test(same_size_other_bytes),
        cmocka_unit_test(content_matches_needs_everything_known),
        cmocka_unit_test(directory_or_fifo_not_regular),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
