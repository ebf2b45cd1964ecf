/* Unit tests of common/formats/gzip/inflate_file.c: plain and gzipped files, read in any sizes or by
   blocks, inflated in a thread ahead of the reader or not, and the failures named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/gzip/inflate_file.h"
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { CONTENT_SIZE = 1500000 };

static unsigned char content[CONTENT_SIZE], result[CONTENT_SIZE + 1];
static char path[4200];

static void make_content(void)
{
    unsigned seed = 7;
    for (size_t index = 0; index < CONTENT_SIZE; index++) {
        seed = seed * 1103515245u + 12345u;
        content[index] = (unsigned char)((seed >> 20) % 7 + index / 50000);
    }
}

static void write_bytes(const char *name, const void *bytes, size_t size)
{
    test_path(path, sizeof path, test_directory, name);
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(bytes, 1, size, file), size);
    fclose(file);
}

/* Writes NAME as two gzip members holding CONTENT, cut to CUT bytes when CUT is not 0. */
static void write_gzip(const char *name, long cut)
{
    test_path(path, sizeof path, test_directory, name);
    for (int member = 0; member < 2; member++) {
        gzFile file = gzopen(path, member == 0 ? "wb" : "ab");
        assert_non_null(file);
        size_t half = CONTENT_SIZE / 3, start = member == 0 ? 0 : half;
        size_t size = member == 0 ? half : CONTENT_SIZE - half;
        assert_int_equal(gzwrite(file, content + start, (unsigned)size), (int)size);
        gzclose(file);
    }
    if (cut != 0)
        assert_int_equal(truncate(path, cut), 0);
}

/* Reads the open file whole, in reads of STEP bytes (0: by blocks); returns the last status. */
static int read_all(struct inflate_file *file, size_t step, size_t *total)
{
    *total = 0;
    for (;;) {
        size_t count;
        int status;
        if (step == 0) {
            const void *block;
            status = inflate_file_block(file, &block, &count);
            if (status == EXIT_OK && count > 0) {
                assert_true(*total + count <= CONTENT_SIZE);
                memcpy(result + *total, block, count);
            }
        } else {
            status = inflate_file_read(file, result + *total, step, &count);
            assert_true(count <= step);
        }
        *total += count;
        if (status != EXIT_OK || count == 0)
            return status;
    }
}

/* Reads PATH whole every way (by blocks, in reads of several sizes, with and without the thread):
   all of CONTENT, or (when EXPECTED is a failure) a beginning of it, then the failure. */
static void check_reads(bool compressed, int expected)
{
    size_t steps[] = {0, 16, 4096, 100000, 1 << 18, 1 << 20, CONTENT_SIZE + 1};
    for (unsigned threads = 1; threads <= 2; threads++) {
        for (size_t index = 0; index < sizeof steps / sizeof steps[0]; index++) {
            struct inflate_file *file;
            size_t total;
            assert_int_equal(inflate_file_open(&file, path, "cannot open", threads), EXIT_OK);
            assert_int_equal(inflate_file_compressed(file), compressed);
            assert_int_equal(read_all(file, steps[index], &total), expected);
            if (expected == EXIT_OK)
                assert_int_equal(total, CONTENT_SIZE);
            else
                assert_string_equal(inflate_file_reason(file), "unexpected end of file");
            assert_true(total > 0);
            assert_memory_equal(result, content, total);
            inflate_file_close(file);
        }
    }
}

static void test_plain_files_read_as_they_are(void **state)
{
    (void)state;
    write_bytes("plain", content, CONTENT_SIZE);
    check_reads(false, EXIT_OK);
    struct inflate_file *file;
    assert_int_equal(inflate_file_open(&file, path, "cannot open", 2), EXIT_OK);
    assert_int_equal(inflate_file_size(file), CONTENT_SIZE);
    inflate_file_close(file);
}

static void test_gzip_members_read_inflated(void **state)
{
    (void)state;
    write_gzip("members.gz", 0);
    check_reads(true, EXIT_OK);
}

static void test_an_empty_file_is_plain_and_empty(void **state)
{
    (void)state;
    write_bytes("empty", "", 0);
    struct inflate_file *file;
    size_t count = 1;
    assert_int_equal(inflate_file_open(&file, path, "cannot open", 2), EXIT_OK);
    assert_false(inflate_file_compressed(file));
    assert_int_equal(inflate_file_read(file, result, 10, &count), EXIT_OK);
    assert_int_equal(count, 0);
    inflate_file_close(file);
}

static void test_a_cut_gzip_file_gives_its_bytes_then_fails(void **state)
{
    (void)state;
    write_gzip("cut.gz", 400000);
    check_reads(true, EXIT_CORRUPT_INPUT);
}

static void test_missing_inputs_are_named(void **state)
{
    (void)state;
    struct inflate_file *file = NULL;
    test_path(path, sizeof path, test_directory, "absent.gz");
    assert_int_equal(inflate_file_open(&file, path, "cannot open archive", 2), EXIT_MISSING_INPUT);
    assert_null(file);
    char expected[4300];
    snprintf(expected, sizeof expected, "cannot open archive: %s: No such file or directory", path);
    assert_string_equal(error_message(), expected);
    assert_int_equal(inflate_file_open(&file, test_directory, "cannot open", 2), EXIT_CORRUPT_INPUT);
    snprintf(expected, sizeof expected, "not a regular file: %s: exists but is a directory",
             test_directory);
    assert_string_equal(error_message(), expected);
}

int main(void)
{
    make_content();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_files_read_as_they_are),
        cmocka_unit_test(test_gzip_members_read_inflated),
        cmocka_unit_test(test_an_empty_file_is_plain_and_empty),
        cmocka_unit_test(test_a_cut_gzip_file_gives_its_bytes_then_fails),
        cmocka_unit_test(test_missing_inputs_are_named),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
