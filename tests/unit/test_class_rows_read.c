/* Unit tests for common/class_rows.c: the UCI layout, blank and comment lines, CRLF, locales,
   malformed lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "converters/class_rows_read.h"
#include "common/base/error.h"
#include "support.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_rows_blank_comment_lines_and_crlf(void **state)
{
    (void)state;
    test_file_make("# written by fuel fixture --raw\n5.1,3.5,1.4,0.2,Iris-setosa\r\n\n  # 1,2\n"
                   "6.25,-2e-1, 3 ,1E1 , Iris-virginica \n\n");
    struct class_row_reader *reader;
    assert_int_equal(class_rows_open(&reader, test_file, 4), EXIT_OK);
    double values[4];
    const char *name;
    unsigned long line;
    bool read;
    assert_int_equal(class_rows_next(reader, values, &name, &line, &read), EXIT_OK);
    assert_true(read);
    assert_int_equal(line, 2);
    assert_string_equal(name, "Iris-setosa");
    assert_true(values[0] == 5.1 && values[1] == 3.5 && values[2] == 1.4 && values[3] == 0.2);
    assert_int_equal(class_rows_next(reader, values, &name, &line, &read), EXIT_OK);
    assert_true(read);
    assert_int_equal(line, 5);
    assert_string_equal(name, "Iris-virginica");
    assert_true(values[0] == 6.25 && values[1] == -0.2 && values[2] == 3.0 && values[3] == 10.0);
    assert_int_equal(class_rows_next(reader, values, &name, &line, &read), EXIT_OK);
    assert_false(read);
    class_rows_close(reader);
    test_file_remove();
}

/* A German locale, built here, would read "5.25" as 5 with plain strtod. */
static void test_numbers_ignore_the_locale(void **state)
{
    (void)state;
    char directory[] = "/tmp/test_class_rows_locale.XXXXXX";
    assert_int_equal(test_directory_create(directory), 0);
    char command[256];
    snprintf(command, sizeof command, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 2>/dev/null",
             directory);
    assert_int_equal(system(command), 0);
    setenv("LOCPATH", directory, 1);
    assert_non_null(setlocale(LC_ALL, "de_DE.UTF-8"));
    assert_true(strtod("5.25", NULL) == 5.0);
    test_file_make("5.25,0.5,1.75,2.0,Iris-versicolor\n");
    struct class_row_reader *reader;
    assert_int_equal(class_rows_open(&reader, test_file, 4), EXIT_OK);
    double values[4];
    const char *name;
    unsigned long line;
    bool read;
    assert_int_equal(class_rows_next(reader, values, &name, &line, &read), EXIT_OK);
    setlocale(LC_ALL, "C");
    assert_true(read);
    assert_true(values[0] == 5.25 && values[1] == 0.5 && values[2] == 1.75 && values[3] == 2.0);
    class_rows_close(reader);
    test_file_remove();
    assert_int_equal(test_directory_remove(directory), 0);
}

static void assert_malformed(const char *text, const char *where, const char *why)
{
    test_file_make(text);
    struct class_row_reader *reader;
    assert_int_equal(class_rows_open(&reader, test_file, 4), EXIT_OK);
    double values[4];
    const char *name;
    unsigned long line;
    bool read = true;
    int result = EXIT_OK;
    error_clear();
    while (result == EXIT_OK && read)
        result = class_rows_next(reader, values, &name, &line, &read);
    class_rows_close(reader);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    char expected[256];
    snprintf(expected, sizeof expected, "malformed line: %s:%s: %s", test_file, where, why);
    if (strcmp(error_message(), expected) != 0)
        fail_msg("got \"%s\", expected \"%s\"", error_message(), expected);
    test_file_remove();
}

static void test_malformed_lines_named(void **state)
{
    (void)state;
    const char *good = "5.1,3.5,1.4,0.2,Iris-setosa\n";
    char text[256];
    snprintf(text, sizeof text, "%s\n%s5,1,3.5,1.4,0.2,Iris-setosa\n", good, good);
    assert_malformed(text, "4", "not one class name: '0.2,Iris-setosa'");
    assert_malformed("5.1,3.5,1.4,Iris-setosa\n", "1", "fewer fields than expected in 'Iris-setosa'");
    assert_malformed("5.1,3.5,1.4\n", "1", "fewer fields than expected in '1.4'");
    assert_malformed("5.1,3.5x,1.4,0.2,Iris-setosa\n", "1", "not a decimal number: '3.5x'");
    assert_malformed("5.1,nan,1.4,0.2,Iris-setosa\n", "1", "not a decimal number: 'nan'");
    assert_malformed("5.1,0x1p3,1.4,0.2,Iris-setosa\n", "1", "not a decimal number: '0x1p3'");
    assert_malformed("5.1,1e999,1.4,0.2,Iris-setosa\n", "1", "not a decimal number: '1e999'");
    assert_malformed("5.1,,1.4,0.2,Iris-setosa\n", "1", "not a decimal number: ''");
    assert_malformed("5.1,1,1.4,0.2,\n", "1", "not one class name: ''");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_blank_comment_lines_and_crlf),
        cmocka_unit_test(test_numbers_ignore_the_locale),
        cmocka_unit_test(test_malformed_lines_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
