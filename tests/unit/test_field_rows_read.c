/* Unit tests for converters/field_rows_read.c: UCI's comma-separated rows, blank and comment lines,
   CRLF, a last line without newline, the field limit, long lines, NUL bytes, numbers, rewinding. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "converters/field_rows_read.h"
#include "common/base/error.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct field_row_reader *open_text(const char *text)
{
    test_file_make(text);
    struct field_row_reader *reader;
    assert_int_equal(field_rows_open(&reader, test_file), EXIT_OK);
    assert_string_equal(field_rows_path(reader), test_file);
    return reader;
}

static void next_row(struct field_row_reader *reader, struct field_row *row, unsigned long line,
                     size_t count)
{
    bool read;
    assert_int_equal(field_rows_next(reader, row, &read), EXIT_OK);
    assert_true(read);
    assert_int_equal(row->line, line);
    assert_int_equal(row->count, count);
}

static void test_fields_comments_blank_lines(void **state)
{
    (void)state;
    struct field_row_reader *reader =
        open_text("|1x3 Cross validator\n39, State-gov,77516 ,\tBachelors , <=50K.\r\n\n \t\r\n"
                  "  | not a row either\n,a,,\n last, line");
    struct field_row row;
    next_row(reader, &row, 2, 5);
    const char *expected[] = {"39", "State-gov", "77516", "Bachelors", "<=50K."};
    for (size_t field = 0; field < 5; field++)
        assert_string_equal(row.fields[field], expected[field]);
    next_row(reader, &row, 6, 4);
    assert_string_equal(row.fields[0], "");
    assert_string_equal(row.fields[1], "a");
    assert_string_equal(row.fields[3], "");
    next_row(reader, &row, 7, 2);
    assert_string_equal(row.fields[1], "line");
    bool read = true;
    assert_int_equal(field_rows_next(reader, &row, &read), EXIT_OK);
    assert_false(read);
    assert_int_equal(field_rows_rewind(reader), EXIT_OK);
    next_row(reader, &row, 2, 5);
    assert_string_equal(row.fields[4], "<=50K.");
    field_rows_close(reader);
    test_file_remove();
}

/* More fields than kept: the count says so, and stops one past the limit. */
static void test_too_many_fields(void **state)
{
    (void)state;
    char text[1024] = "";
    for (int field = 0; field < 200; field++)
        strcat(text, "x,");
    struct field_row_reader *reader = open_text(text);
    struct field_row row;
    next_row(reader, &row, 1, FIELD_ROWS_MAX_FIELDS + 1);
    assert_string_equal(row.fields[FIELD_ROWS_MAX_FIELDS - 1], "x");
    field_rows_close(reader);
    test_file_remove();
}

static void expect_malformed(const char *text, const char *why)
{
    struct field_row_reader *reader = open_text(text);
    struct field_row row;
    next_row(reader, &row, 1, 2);
    bool read = true;
    assert_int_equal(field_rows_next(reader, &row, &read), EXIT_CORRUPT_INPUT);
    assert_false(read);
    char expected[4300];
    snprintf(expected, sizeof expected, "malformed line: %s:2: %s", test_file, why);
    assert_string_equal(error_message(), expected);
    field_rows_close(reader);
    test_file_remove();
}

static void test_long_lines_and_nul_bytes(void **state)
{
    (void)state;
    char *text = malloc(2 * FIELD_ROWS_MAX_LINE + 16);
    assert_non_null(text);
    strcpy(text, "a, b\n");
    memset(text + 5, 'y', FIELD_ROWS_MAX_LINE + 1);
    text[5 + FIELD_ROWS_MAX_LINE + 1] = '\0';
    expect_malformed(text, "longer than 4096 bytes");
    /* A line of exactly the limit is read whole. */
    text[5 + FIELD_ROWS_MAX_LINE] = '\0';
    struct field_row_reader *reader = open_text(text);
    struct field_row row;
    next_row(reader, &row, 1, 2);
    next_row(reader, &row, 2, 1);
    assert_int_equal(strlen(row.fields[0]), FIELD_ROWS_MAX_LINE);
    field_rows_close(reader);
    test_file_remove();
    free(text);
    test_file_make("");
    FILE *file = fopen(test_file, "wb");
    assert_non_null(file);
    fwrite("a\nb,\0c\n", 1, 7, file);
    fclose(file);
    assert_int_equal(field_rows_open(&reader, test_file), EXIT_OK);
    bool read;
    assert_int_equal(field_rows_next(reader, &row, &read), EXIT_OK);
    assert_int_equal(field_rows_next(reader, &row, &read), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), ":2: NUL byte in the line"));
    field_rows_close(reader);
    test_file_remove();
}

static void test_numbers(void **state)
{
    (void)state;
    struct field_row_reader *reader = open_text("");
    const char *good[] = {"39", "-7", "+2.5", "1e3", ".5", "77516"};
    const double values[] = {39, -7, 2.5, 1000, 0.5, 77516};
    for (size_t index = 0; index < 6; index++) {
        double value = 0;
        assert_true(field_rows_number(reader, good[index], &value));
        assert_true(value == values[index]);
    }
    const char *bad[] = {"", "inf", "nan", "0x10", "1e999", "3 4", "1,5", "--1", "e"};
    for (size_t index = 0; index < sizeof bad / sizeof bad[0]; index++) {
        double value;
        assert_false(field_rows_number(reader, bad[index], &value));
    }
    field_rows_close(reader);
    test_file_remove();
}

static void test_missing_file(void **state)
{
    (void)state;
    struct field_row_reader *reader;
    assert_int_equal(field_rows_open(&reader, "/nonexistent/adult.data"), EXIT_MISSING_INPUT);
    assert_null(reader);
    assert_string_equal(error_message(),
                        "cannot open: /nonexistent/adult.data: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_comments_blank_lines),
        cmocka_unit_test(test_too_many_fields),
        cmocka_unit_test(test_long_lines_and_nul_bytes),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
