/* Unit tests for converters/attribute_list_read.c: CelebA's layout (count, names, rows of -1/1
   with runs of spaces, CRLF), blank lines, and every malformed line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "converters/attribute_list_read.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reads_celeba_layout(void **state)
{
    (void)state;
    /* As numpy.loadtxt, what follows a '#' is a comment. */
    test_file_make("3 # the count\r\n"
                   "Bald Young Smiling \r\n"
                   "000001.jpg -1  1 -1\r\n"
                   "\n"
                   "000002.jpg  1  1  1 # -1\r\n"
                   "000003.jpg\t-1\t-1\t-1\n");
    struct attribute_list *list;
    assert_int_equal(attribute_list_open(&list, test_file, 3), EXIT_OK);
    assert_int_equal(attribute_list_declared(list), 3);
    const char *names[3] = {"000001.jpg", "000002.jpg", "000003.jpg"};
    const uint8_t expected[3][3] = {{0, 1, 0}, {1, 1, 1}, {0, 0, 0}};
    const unsigned long lines[3] = {3, 5, 6};
    for (int row = 0; row < 3; row++) {
        const char *name;
        uint8_t values[3];
        unsigned long line;
        bool read;
        assert_int_equal(attribute_list_next(list, &name, values, &line, &read), EXIT_OK);
        assert_true(read);
        assert_string_equal(name, names[row]);
        assert_memory_equal(values, expected[row], 3);
        assert_int_equal(line, lines[row]);
    }
    const char *name;
    uint8_t values[3];
    unsigned long line;
    bool read = true;
    assert_int_equal(attribute_list_next(list, &name, values, &line, &read), EXIT_OK);
    assert_false(read);
    attribute_list_close(list);
}

/* The message reading TEXT (with 2 attributes) ends with, after "malformed attribute list: ". */
static void assert_malformed(const char *text, size_t size, const char *why)
{
    FILE *file = fopen(test_file, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(text, 1, size, file), size);
    fclose(file);
    struct attribute_list *list;
    int result = attribute_list_open(&list, test_file, 2);
    while (result == EXIT_OK) {
        const char *name;
        uint8_t values[2];
        unsigned long line;
        bool read;
        result = attribute_list_next(list, &name, values, &line, &read);
        if (result == EXIT_OK && !read) {
            attribute_list_close(list);
            fail_msg("read to the end: %s", text);
        }
        if (result != EXIT_OK)
            attribute_list_close(list);
    }
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    char expected[8192];
    snprintf(expected, sizeof expected, "malformed attribute list: %s%s", test_file, why);
    assert_string_equal(error_message(), expected);
}

#define MALFORMED(text, why) assert_malformed(text, sizeof text - 1, why)

static void malformed_lines_refused(void **state)
{
    (void)state;
    MALFORMED("", ":1: empty file: no image count");
    MALFORMED("two\nA B\n", ":1: the first line is not an image count");
    MALFORMED("-2\nA B\n", ":1: the first line is not an image count");
    MALFORMED("2 3\nA B\n", ":1: the first line is not an image count");
    MALFORMED("99999999999999999999999\nA B\n", ":1: the first line is not an image count");
    MALFORMED("1\nA B C\n1.jpg 1 1\n", ":2: 3 attribute names, expected 2");
    MALFORMED("1\n", ":1: 0 attribute names, expected 2");
    MALFORMED("2\nA B\n1.jpg 1 -1\n2.jpg 1\n", ":4: 1 values after the image name, expected 2");
    MALFORMED("1\nA B\n1.jpg 1 -1 1\n", ":3: 3 values after the image name, expected 2");
    MALFORMED("1\nA B\n1.jpg 1 0\n", ":3: value other than -1 or 1: '0'");
    MALFORMED("1\nA B\n1.jpg 1 +1\n", ":3: value other than -1 or 1: '+1'");
    MALFORMED("1\nA B\n1.jpg 1 1.0\n", ":3: value other than -1 or 1: '1.0'");
    MALFORMED("1\nA B\n1.jpg\0 1 1\n", ":3: NUL byte in the line");
    MALFORMED("3\nA B\n1.jpg 1 1\n2.jpg -1 -1\n", ": 2 images listed, the first line declares 3");
    MALFORMED("1\nA B\n1.jpg 1 1\n2.jpg -1 -1\n", ": 2 images listed, the first line declares 1");
    char *long_line = malloc(ATTRIBUTE_LIST_MAX_LINE + 64);
    assert_non_null(long_line);
    int length = snprintf(long_line, 32, "1\nA B\n1.jpg");
    memset(long_line + length, ' ', ATTRIBUTE_LIST_MAX_LINE);
    strcpy(long_line + length + ATTRIBUTE_LIST_MAX_LINE, " 1 1\n");
    assert_malformed(long_line, strlen(long_line), ":3: line longer than 4096 bytes");
    free(long_line);
}

static void missing_file(void **state)
{
    (void)state;
    struct attribute_list *list;
    assert_int_equal(attribute_list_open(&list, "/nonexistent/list_attr_celeba.txt", 40),
                     EXIT_MISSING_INPUT);
    assert_string_equal(error_message(),
                        "cannot open: /nonexistent/list_attr_celeba.txt: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_celeba_layout),
        cmocka_unit_test(malformed_lines_refused),
        cmocka_unit_test(missing_file),
    };
    return cmocka_run_group_tests(tests, test_file_setup, test_file_teardown);
}
