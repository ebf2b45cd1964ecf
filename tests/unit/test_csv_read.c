/* Unit tests of the CSV and TSV reader: quotes, CRLF, a byte order mark, blank lines, long lines,
   NUL bytes and open quotes refused with their line; numbers as Python's float() and int() take
   them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "packing/csv_read.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct csv_reader *open_text(const char *text, size_t length, char separator)
{
    FILE *stream = fopen(test_file, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(text, 1, length, stream), length);
    fclose(stream);
    struct csv_reader *reader;
    assert_int_equal(csv_open(&reader, test_file, separator), EXIT_OK);
    return reader;
}

static void expect_row(struct csv_reader *reader, size_t line, size_t count, ...)
{
    char **fields;
    size_t found, at;
    assert_int_equal(csv_next(reader, &fields, &found, &at), EXIT_OK);
    assert_int_equal(found, count);
    assert_int_equal(at, line);
    va_list arguments;
    va_start(arguments, count);
    for (size_t field = 0; field < count; field++)
        assert_string_equal(fields[field], va_arg(arguments, const char *));
    va_end(arguments);
}

static void expect_end(struct csv_reader *reader)
{
    char **fields;
    size_t found, at;
    assert_int_equal(csv_next(reader, &fields, &found, &at), EXIT_OK);
    assert_int_equal(found, 0);
}

static void reads_rows(void **state)
{
    (void)state;
    const char text[] = "\xEF\xBB\xBF" "a,\"b,c\",\"say \"\"hi\"\"\"\r\n\n1,,3\r\n 4 ,5,\"\"";
    struct csv_reader *reader = open_text(text, sizeof text - 1, ',');
    expect_row(reader, 1, 3, "a", "b,c", "say \"hi\"");
    expect_row(reader, 3, 3, "1", "", "3");
    expect_row(reader, 4, 3, " 4 ", "5", "");
    expect_end(reader);
    csv_close(reader);
    const char tabs[] = "x\ty,z\n1\t2\n";
    reader = open_text(tabs, sizeof tabs - 1, '\t');
    expect_row(reader, 1, 2, "x", "y,z");
    expect_row(reader, 2, 2, "1", "2");
    expect_end(reader);
    csv_close(reader);
}

static void expect_refusal(const char *text, size_t length, const char *why)
{
    struct csv_reader *reader = open_text(text, length, ',');
    char **fields;
    size_t count, line;
    int result = EXIT_OK;
    for (int row = 0; row < 4 && result == EXIT_OK; row++)
        result = csv_next(reader, &fields, &count, &line);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    char expected[512];
    snprintf(expected, sizeof expected, "malformed CSV: %s:%s", test_file, why);
    assert_string_equal(error_message(), expected);
    csv_close(reader);
}

static void refuses_malformed_lines(void **state)
{
    (void)state;
    expect_refusal("a,b\n1,\"2\n3,4\n", 13, "2: a quote left open (quoted fields cannot span lines)");
    expect_refusal("a,b\n1,\"2\"x\n", 12, "2: text after a closing quote");
    expect_refusal("a,b\n1,2\n3\0,4\n", 13, "3: a NUL byte");
    size_t length = CSV_LINE_MAX + 10;
    char *long_line = malloc(length);
    assert_non_null(long_line);
    memcpy(long_line, "a\n", 2);
    memset(long_line + 2, '7', length - 2);
    expect_refusal(long_line, length, "2: a line longer than 1048576 bytes");
    free(long_line);
}

static void parses_numbers(void **state)
{
    (void)state;
    double real;
    assert_true(csv_real(" 2.5 ", &real) && real == 2.5);
    assert_true(csv_real("-1e-3", &real) && real == -1e-3);
    assert_true(csv_real(".5", &real) && real == 0.5);
    assert_true(csv_real("NaN", &real) && isnan(real));
    assert_true(csv_real("-Infinity", &real) && isinf(real) && real < 0);
    assert_false(csv_real("", &real));
    assert_false(csv_real("0x10", &real));
    assert_false(csv_real("1.5.2", &real));
    assert_false(csv_real("nan(1)", &real));
    assert_false(csv_real("abc", &real));
    int64_t whole;
    uint64_t natural;
    assert_true(csv_whole("-9223372036854775808", false, &whole, &natural) && whole == INT64_MIN);
    assert_false(csv_whole("9223372036854775808", false, &whole, &natural));
    assert_true(csv_whole("+18446744073709551615", true, &whole, &natural) && natural == UINT64_MAX);
    assert_true(csv_whole("-0", true, &whole, &natural) && natural == 0);
    assert_false(csv_whole("-1", true, &whole, &natural));
    assert_false(csv_whole("1.0", false, &whole, &natural));
    assert_false(csv_whole("-", false, &whole, &natural));
}

static void missing_file(void **state)
{
    (void)state;
    struct csv_reader *reader = (struct csv_reader *)1;
    assert_int_equal(csv_open(&reader, "/nonexistent/t.csv", ','), EXIT_MISSING_INPUT);
    assert_null(reader);
    assert_string_equal(error_message(), "not found: /nonexistent/t.csv");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reads_rows, test_file_setup, test_file_teardown),
        cmocka_unit_test_setup_teardown(refuses_malformed_lines, test_file_setup, test_file_teardown),
        cmocka_unit_test(parses_numbers),
        cmocka_unit_test(missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
