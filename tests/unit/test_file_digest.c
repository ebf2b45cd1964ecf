/* Unit tests of the digest that follows a growing file: same result as hashing the whole file,
   cancellation, and a writer that claims more bytes than the file holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../common/error.h"
#include "../../common/file_digest.h"
#include "support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_follows_the_writer(void **state)
{
    (void)state;
    int descriptor = open(test_file, O_WRONLY | O_TRUNC);
    assert_true(descriptor >= 0);
    struct file_digest *digest;
    assert_int_equal(file_digest_start(&digest, test_file, HASH_SHA256), EXIT_OK);
    static unsigned char block[300000];
    uint64_t written = 0;
    for (int round = 0; round < 20; round++) {
        for (size_t index = 0; index < sizeof block; index++)
            block[index] = (unsigned char)(index * 31 + (size_t)round);
        size_t size = sizeof block - (size_t)round * 1000;
        assert_int_equal(write(descriptor, block, size), (ssize_t)size);
        written += size;
        file_digest_advance(digest, written);
    }
    close(descriptor);
    char followed[HASH_HEX_SIZE], whole[HASH_HEX_SIZE];
    assert_int_equal(file_digest_finish(digest, followed), EXIT_OK);
    uint64_t size;
    assert_int_equal(hash_file(test_file, HASH_SHA256, whole, &size), EXIT_OK);
    assert_int_equal(size, written);
    assert_string_equal(followed, whole);
}

static void test_md5_of_an_empty_file(void **state)
{
    (void)state;
    int descriptor = open(test_file, O_WRONLY | O_TRUNC);
    close(descriptor);
    struct file_digest *digest;
    assert_int_equal(file_digest_start(&digest, test_file, HASH_MD5), EXIT_OK);
    char hex[HASH_HEX_SIZE];
    assert_int_equal(file_digest_finish(digest, hex), EXIT_OK);
    assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
}

static void test_cancel_and_short_file(void **state)
{
    (void)state;
    struct file_digest *digest;
    assert_int_equal(file_digest_start(&digest, test_file, HASH_MD5), EXIT_OK);
    file_digest_advance(digest, 10);
    file_digest_cancel(digest);
    file_digest_cancel(NULL);
    assert_int_equal(file_digest_start(&digest, test_file, HASH_MD5), EXIT_OK);
    file_digest_advance(digest, 5000000);
    char hex[HASH_HEX_SIZE];
    assert_int_equal(file_digest_finish(digest, hex), EXIT_OTHER);
    assert_non_null(strstr(error_message(), "cannot read back: "));
}

static void test_missing_file(void **state)
{
    (void)state;
    struct file_digest *digest;
    assert_int_equal(file_digest_start(&digest, "/nonexistent/file", HASH_MD5), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot read back: /nonexistent/file: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_follows_the_writer),
        cmocka_unit_test(test_md5_of_an_empty_file),
        cmocka_unit_test(test_cancel_and_short_file),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, test_file_setup, test_file_teardown);
}
