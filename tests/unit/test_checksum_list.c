/* Unit tests of md5sum/sha256sum file parsing: both formats, lookups by base name, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/checksum_list.h"
#include "common/base/error.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_md5_and_sha256_lines(void **state)
{
    (void)state;
    test_file_write(test_file, "# made by md5sum\n"
               "8D4FB7E6C68D591D4C3DFEF9EC88BF0D  train-images-idx3-ubyte.gz\r\n"
               "\n"
               "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef *data/iris.data\n"
               "bb300cfdad3c16e7a12a480ee83cd310  ./t10k labels.gz\n");
    struct checksum_list list;
    assert_int_equal(checksum_list_load(&list, test_file), EXIT_OK);
    assert_int_equal(list.count, 3);
    assert_string_equal(checksum_list_find(&list, "train-images-idx3-ubyte.gz"),
                        "8d4fb7e6c68d591d4c3dfef9ec88bf0d");
    assert_string_equal(checksum_list_find(&list, "iris.data"),
                        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    assert_string_equal(checksum_list_find(&list, "t10k labels.gz"),
                        "bb300cfdad3c16e7a12a480ee83cd310");
    assert_null(checksum_list_find(&list, "data"));
    checksum_list_free(&list);
}

static void test_malformed_lines_name_the_line(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "abc  short.gz\n",
        "8d4fb7e6c68d591d4c3dfef9ec88bf0d train.gz\n",
        "8d4fb7e6c68d591d4c3dfef9ec88bf0d  \n",
        "8d4fb7e6c68d591d4c3dfef9ec88bf0dz  train.gz\n",
    };
    for (size_t index = 0; index < sizeof bad / sizeof bad[0]; index++) {
        char text[256];
        snprintf(text, sizeof text, "8d4fb7e6c68d591d4c3dfef9ec88bf0d  fine.gz\n%s", bad[index]);
        test_file_write(test_file, text);
        struct checksum_list list;
        assert_int_equal(checksum_list_load(&list, test_file), EXIT_CORRUPT_INPUT);
        char expected[128];
        snprintf(expected, sizeof expected, "malformed checksum line: %s:2:", test_file);
        assert_non_null(strstr(error_message(), expected));
        assert_null(list.entries);
    }
}

static void test_overlong_line(void **state)
{
    (void)state;
    char *text = malloc(6000);
    assert_non_null(text);
    memset(text, 'a', 5999);
    text[5999] = '\0';
    test_file_write(test_file, text);
    free(text);
    struct checksum_list list;
    assert_int_equal(checksum_list_load(&list, test_file), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "too long"));
}

static void test_missing_file(void **state)
{
    (void)state;
    struct checksum_list list;
    assert_int_equal(checksum_list_load(&list, "/nonexistent/sums"), EXIT_MISSING_INPUT);
    assert_string_equal(error_message(),
                        "cannot open checksums: not found: /nonexistent/sums");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md5_and_sha256_lines),
        cmocka_unit_test(test_malformed_lines_name_the_line),
        cmocka_unit_test(test_overlong_line),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, test_file_setup, test_file_teardown);
}
