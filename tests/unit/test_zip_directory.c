/* Unit tests for common/formats/archive/zip_directory.c on the zip archives tests/helpers/zip_archives.py
   writes with Python's zipfile (a comment holding an end record's signature, zip64 with 70000
   entries) and on damaged copies of them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/archive/zip_directory.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct listing {
    char names[8][64];
    size_t count;
    size_t stop_at; /* 0: never stop */
};

static int remember(void *context, const char *name)
{
    struct listing *listing = context;
    if (listing->count < 8)
        snprintf(listing->names[listing->count], sizeof listing->names[0], "%s", name);
    listing->count++;
    return listing->count == listing->stop_at ? 42 : 0;
}

static const char *archive_path(const char *name)
{
    static char path[512];
    test_path(path, sizeof path, test_directory, name);
    return path;
}

static int make_archives(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    char command[1024];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/zip_archives.py %s",
             test_directory);
    return system(command) == 0 ? 0 : -1;
}

/* A copy of SOURCE as TARGET with the bytes at OFFSET (from the end when negative) replaced. */
static const char *patched(const char *source, const char *target, long offset, const void *bytes,
                           size_t size)
{
    FILE *input = fopen(archive_path(source), "rb");
    assert_non_null(input);
    static unsigned char data[1 << 20];
    size_t length = fread(data, 1, sizeof data, input);
    fclose(input);
    size_t at = offset < 0 ? length - (size_t)-offset : (size_t)offset;
    memcpy(data + at, bytes, size);
    FILE *output = fopen(archive_path(target), "wb");
    assert_non_null(output);
    assert_int_equal(fwrite(data, 1, length, output), length);
    fclose(output);
    return archive_path(target);
}

static void lists_entries_in_order(void **state)
{
    (void)state;
    static const char *const expected[6] = {"top/", "top/first", "top/inner/",
                                            "top/inner/second", "top/empty", "top/noise"};
    const char *archives[4] = {"python-stored.zip", "python-deflated.zip",
                               "python-stored-descriptor.zip", "python-deflated-descriptor.zip"};
    for (size_t archive = 0; archive < 4; archive++) {
        struct listing listing = {0};
        assert_int_equal(zip_directory_list(archive_path(archives[archive]), remember, &listing),
                         EXIT_OK);
        assert_int_equal(listing.count, 6);
        for (size_t index = 0; index < 6; index++)
            assert_string_equal(listing.names[index], expected[index]);
    }
}

static void zip64_lists_every_entry(void **state)
{
    (void)state;
    struct listing listing = {0};
    assert_int_equal(zip_directory_list(archive_path("many.zip"), remember, &listing), EXIT_OK);
    assert_int_equal(listing.count, 70000);
    assert_string_equal(listing.names[7], "m/00007");
}

static void visit_result_stops(void **state)
{
    (void)state;
    struct listing listing = {.stop_at = 2};
    assert_int_equal(zip_directory_list(archive_path("python-stored.zip"), remember, &listing), 42);
    assert_int_equal(listing.count, 2);
}

static void assert_refused(const char *path, int code, const char *message)
{
    struct listing listing = {0};
    assert_int_equal(zip_directory_list(path, remember, &listing), code);
    char expected[1024];
    snprintf(expected, sizeof expected, message, path);
    assert_string_equal(error_message(), expected);
}

static void damaged_archives_refused(void **state)
{
    (void)state;
    assert_refused(archive_path("truncated-directory.zip"), EXIT_CORRUPT_INPUT,
                   "cannot read zip directory: %s: no end of central directory record at its "
                   "end: truncated or followed by other bytes");
    assert_refused(archive_path("trailing.zip"), EXIT_CORRUPT_INPUT,
                   "cannot read zip directory: %s: no end of central directory record at its "
                   "end: truncated or followed by other bytes");
    assert_refused(archive_path("absent.zip"), EXIT_MISSING_INPUT,
                   "cannot open archive: %s: No such file or directory");
    assert_refused(test_directory, EXIT_CORRUPT_INPUT,
                   "not a regular file: %s: exists but is a directory");
}

/* python-stored-descriptor.zip has no comment: its end record is its last 22 bytes. */
static void inconsistent_directories_refused(void **state)
{
    (void)state;
    const unsigned char seven[2] = {7, 0}, offset[4] = {1, 0, 0, 0}, bad[4] = {'P', 'K', 9, 9};
    assert_refused(patched("python-stored-descriptor.zip", "count.zip", -12, seven, 2),
                   EXIT_CORRUPT_INPUT,
                   "cannot read zip directory: %s: holds 6 entries, its end record lists 7");
    assert_refused(patched("python-stored-descriptor.zip", "offset.zip", -6, offset, 4),
                   EXIT_CORRUPT_INPUT,
                   "cannot read zip directory: %s: the central directory is not where its end "
                   "record says");
    struct listing listing = {0};
    assert_int_equal(zip_directory_list(archive_path("python-stored-descriptor.zip"), remember,
                                        &listing), EXIT_OK);
    FILE *file = fopen(archive_path("python-stored-descriptor.zip"), "rb");
    assert_non_null(file);
    static unsigned char data[1 << 20];
    size_t length = fread(data, 1, sizeof data, file);
    fclose(file);
    unsigned char *directory = memmem(data, length, "PK\x01\x02", 4);
    assert_non_null(directory);
    long at = (long)(directory - data);
    assert_refused(patched("python-stored-descriptor.zip", "signature.zip", at, bad, 4),
                   EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: an entry without the "
                   "central directory signature");
    const unsigned char nul[1] = {0};
    assert_refused(patched("python-stored-descriptor.zip", "nul.zip", at + 46 + 1, nul, 1),
                   EXIT_CORRUPT_INPUT,
                   "cannot read zip directory: %s: an entry name holds a NUL byte");
    const unsigned char long_name[2] = {0xff, 0xff};
    assert_refused(patched("python-stored-descriptor.zip", "long.zip", at + 28, long_name, 2),
                   EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: an entry runs past the "
                   "end of the central directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_entries_in_order),
        cmocka_unit_test(zip64_lists_every_entry),
        cmocka_unit_test(visit_result_stops),
        cmocka_unit_test(damaged_archives_refused),
        cmocka_unit_test(inconsistent_directories_refused),
    };
    return cmocka_run_group_tests(tests, make_archives, test_directory_teardown);
}
