/* Unit tests for common/amat.c: whitespace, CRLF, blank and comment lines, and malformed lines
   with file:line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "converters/amat_read.h"
#include "common/base/error.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads every row of a 4-value file into ROWS; returns the status and *COUNT rows read. */
static int read_all(unsigned char rows[][4], size_t capacity, size_t *count)
{
    struct amat_reader *reader;
    int result = amat_open(&reader, test_file, 4);
    assert_int_equal(result, EXIT_OK);
    bool read = true;
    *count = 0;
    while (result == EXIT_OK && read && *count < capacity) {
        result = amat_next(reader, rows[*count], &read);
        *count += read;
    }
    amat_close(reader);
    return result;
}

static void test_whitespace_crlf_and_blank_lines(void **state)
{
    (void)state;
    test_file_make("0 1 1 0\r\n\t1  0 0 1   \r\n\n  \r\n1 1 1 1\n\n\n");
    unsigned char rows[8][4];
    size_t count;
    assert_int_equal(read_all(rows, 8, &count), EXIT_OK);
    assert_int_equal(count, 3);
    assert_memory_equal(rows[0], "\0\1\1\0", 4);
    assert_memory_equal(rows[1], "\1\0\0\1", 4);
    assert_memory_equal(rows[2], "\1\1\1\1", 4);
    test_file_remove();
}

static void assert_malformed(const char *text, const char *where, const char *why);

/* Comment lines (a fixture's mark first) are passed over and counted; a '#' after a value is not
   a comment. */
static void test_comment_lines(void **state)
{
    (void)state;
    test_file_make("# written by fuel fixture --raw: 0 1\n0 1 1 0\n  # 1 1\n#\n1 0 0 1\n# last");
    unsigned char rows[8][4];
    size_t count;
    assert_int_equal(read_all(rows, 8, &count), EXIT_OK);
    assert_int_equal(count, 2);
    assert_memory_equal(rows[0], "\0\1\1\0", 4);
    assert_memory_equal(rows[1], "\1\0\0\1", 4);
    test_file_remove();
    assert_malformed("# mark\n0 1 1 0\n0 1 # 1 0\n", "3", "value other than 0 or 1");
}

static void test_last_line_without_newline(void **state)
{
    (void)state;
    test_file_make("0 0 0 1\n1 0 0 0");
    unsigned char rows[4][4];
    size_t count;
    assert_int_equal(read_all(rows, 4, &count), EXIT_OK);
    assert_int_equal(count, 2);
    assert_memory_equal(rows[1], "\1\0\0\0", 4);
    test_file_remove();
}

static void assert_malformed(const char *text, const char *where, const char *why)
{
    test_file_make(text);
    unsigned char rows[8][4];
    size_t count;
    error_clear();
    assert_int_equal(read_all(rows, 8, &count), EXIT_CORRUPT_INPUT);
    char expected[256];
    snprintf(expected, sizeof expected, "malformed amat file: %s:%s: %s", test_file, where, why);
    if (strcmp(error_message(), expected) != 0)
        fail_msg("got \"%s\", expected \"%s\"", error_message(), expected);
    test_file_remove();
}

static void test_malformed_lines_named(void **state)
{
    (void)state;
    assert_malformed("0 1 1 0\n0 1 2 0\n", "2", "value other than 0 or 1");
    assert_malformed("0 1 1 0\n\n0 1 10 0\n", "3", "value other than 0 or 1");
    assert_malformed("0 1 1 0\r\n0 1 0.5 0\r\n", "2", "value other than 0 or 1");
    assert_malformed("0 1 1\n", "1", "fewer values than 4");
    assert_malformed("0 1 1 0\n1 1 1 1 1\n", "2", "more values than 4");
    assert_malformed("0 1 1 0\n0 1 1", "2", "fewer values than 4");
    assert_malformed("0 1 1 0\n0,1,1,0\n", "2", "value other than 0 or 1");
}

static void test_missing_file(void **state)
{
    (void)state;
    struct amat_reader *reader;
    assert_int_equal(amat_open(&reader, "/nonexistent/x.amat", 4), EXIT_MISSING_INPUT);
    assert_non_null(strstr(error_message(), "/nonexistent/x.amat"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whitespace_crlf_and_blank_lines),
        cmocka_unit_test(test_comment_lines),
        cmocka_unit_test(test_last_line_without_newline),
        cmocka_unit_test(test_malformed_lines_named),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
