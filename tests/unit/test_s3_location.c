/* Unit tests of s3:// names: buckets, keys that stay inside their prefix, joining, URLs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/download/s3_location.h"
#include "common/download/s3_request.h"

#include <stdlib.h>
#include <string.h>

static void test_parse_bucket_and_key(void **state)
{
    (void)state;
    struct s3_location location;
    assert_int_equal(s3_location_parse(&location, "s3://fuel-data.1/mnist/train.gz"), EXIT_OK);
    assert_string_equal(location.bucket, "fuel-data.1");
    assert_string_equal(location.key, "mnist/train.gz");
    s3_location_free(&location);
    assert_int_equal(s3_location_parse(&location, "s3://fuel/mnist/"), EXIT_OK);
    assert_string_equal(location.key, "mnist/");
    s3_location_free(&location);
    assert_int_equal(s3_location_parse(&location, "s3://fuel"), EXIT_OK);
    assert_string_equal(location.bucket, "fuel");
    assert_string_equal(location.key, "");
    s3_location_free(&location);
}

static void test_bad_buckets(void **state)
{
    (void)state;
    const char *bad[] = {"s3://", "s3://ab/x", "s3://Fuel/x", "s3://-fuel/x", "s3://fuel-/x",
                         "s3://fu_el/x", "http://fuel/x",
                         "s3://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/x"};
    for (size_t index = 0; index < sizeof bad / sizeof bad[0]; index++) {
        struct s3_location location;
        assert_int_equal(s3_location_parse(&location, bad[index]), EXIT_CORRUPT_INPUT);
        assert_null(location.key);
    }
}

static void test_hostile_keys(void **state)
{
    (void)state;
    const char *bad[] = {"/etc/passwd", "..", "../x", "a/../../x", "a/./b", "a//b", "a/..",
                         "a\\..\\b", "a\nb", ""};
    for (size_t index = 0; index < sizeof bad / sizeof bad[0]; index++)
        assert_false(s3_key_is_safe(bad[index]));
    const char *good[] = {"a", "a/b/", "mnist/train-images-idx3-ubyte.gz", "a..b/c.", "x y"};
    for (size_t index = 0; index < sizeof good / sizeof good[0]; index++)
        assert_true(s3_key_is_safe(good[index]));
    struct s3_location location;
    assert_int_equal(s3_location_parse(&location, "s3://fuel/a/../../etc"), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "refused key: s3://fuel/a/../../etc"));
    assert_int_equal(s3_location_parse(&location, "s3://fuel//etc"), EXIT_CORRUPT_INPUT);
}

static void test_join(void **state)
{
    (void)state;
    char *key = s3_key_join("data/mnist/", "train.gz");
    assert_string_equal(key, "data/mnist/train.gz");
    free(key);
    key = s3_key_join("data", "sub/train.gz");
    assert_string_equal(key, "data/sub/train.gz");
    free(key);
    key = s3_key_join("", "train.gz");
    assert_string_equal(key, "train.gz");
    free(key);
    assert_null(s3_key_join("data/", "../secret"));
    assert_int_equal(error_code(), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "refused key: ../secret: it would leave the prefix data/");
    assert_null(s3_key_join("data/", "/etc/passwd"));
    assert_null(s3_key_join("data/", ""));
}

static void test_urls(void **state)
{
    (void)state;
    struct s3_credentials aws = {.region = "eu-west-3"};
    char *url = s3_request_url(&aws, "fuel", "a b/c+d.gz", "");
    assert_string_equal(url, "https://fuel.s3.eu-west-3.amazonaws.com/a%20b/c%2Bd.gz");
    free(url);
    url = s3_request_url(&aws, "fuel.data", "k", "");
    assert_string_equal(url, "https://s3.eu-west-3.amazonaws.com/fuel.data/k");
    free(url);
    struct s3_credentials store = {.region = "us-east-1", .endpoint = "http://127.0.0.1:9000/"};
    url = s3_request_url(&store, "fuel", "m/x", "partNumber=2&uploadId=a%2Fb");
    assert_string_equal(url, "http://127.0.0.1:9000/fuel/m/x?partNumber=2&uploadId=a%2Fb");
    free(url);
    char *escaped = s3_query_escape("a/b c~");
    assert_string_equal(escaped, "a%2Fb%20c~");
    free(escaped);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_bucket_and_key),
        cmocka_unit_test(test_bad_buckets),
        cmocka_unit_test(test_hostile_keys),
        cmocka_unit_test(test_join),
        cmocka_unit_test(test_urls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
