/* Unit tests of the AWS credential chain: environment, profiles of both files, anonymity, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/download/s3_credentials.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const variables[] = {
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION",
    "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3",
    "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE",
};

/* A HOME with ~/.aws/credentials and ~/.aws/config holding CREDENTIALS and CONFIG. */
static void home_make(const char *credentials, const char *config)
{
    for (size_t index = 0; index < sizeof variables / sizeof variables[0]; index++)
        unsetenv(variables[index]);
    char path[4096];
    test_path(path, sizeof path, test_directory, ".aws");
    mkdir(path, 0700);
    setenv("HOME", test_directory, 1);
    test_path(path, sizeof path, test_directory, ".aws/credentials");
    test_file_write(path, credentials);
    test_path(path, sizeof path, test_directory, ".aws/config");
    test_file_write(path, config);
}

static void test_environment_first(void **state)
{
    (void)state;
    home_make("[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = FILESECRET\n",
              "[default]\nregion = eu-west-1\nendpoint_url = http://file.example\n");
    setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "ENVSECRET", 1);
    setenv("AWS_SESSION_TOKEN", "TOKEN", 1);
    setenv("AWS_DEFAULT_REGION", "ap-south-1", 1);
    setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1", 1);
    struct s3_credentials credentials;
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_string_equal(credentials.access_key, "ENVKEY");
    assert_string_equal(credentials.secret_key, "ENVSECRET");
    assert_string_equal(credentials.session_token, "TOKEN");
    assert_string_equal(credentials.region, "ap-south-1");
    assert_string_equal(credentials.endpoint, "http://127.0.0.1:1");
    s3_credentials_free(&credentials);
    setenv("AWS_REGION", "us-west-2", 1);
    setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:2", 1);
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_string_equal(credentials.region, "us-west-2");
    assert_string_equal(credentials.endpoint, "http://127.0.0.1:2");
    s3_credentials_free(&credentials);
}

static void test_named_profile(void **state)
{
    (void)state;
    home_make("# comment\n[default]\naws_access_key_id=D\naws_secret_access_key=DS\n"
              "[work]\n  ; indented comment\naws_access_key_id = W:K\naws_secret_access_key = W S\n",
              "[profile work]\nregion = eu-central-1\ns3 =\n  endpoint_url = http://nested\n"
              "endpoint_url = http://127.0.0.1:3\n[default]\nregion = us-east-2\n");
    setenv("AWS_PROFILE", "work", 1);
    struct s3_credentials credentials;
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_string_equal(credentials.access_key, "W:K");
    assert_string_equal(credentials.secret_key, "W S");
    assert_null(credentials.session_token);
    assert_string_equal(credentials.region, "eu-central-1");
    assert_string_equal(credentials.endpoint, "http://127.0.0.1:3");
    assert_string_equal(credentials.profile, "work");
    s3_credentials_free(&credentials);
    unsetenv("AWS_PROFILE");
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_string_equal(credentials.access_key, "D");
    assert_string_equal(credentials.region, "us-east-2");
    assert_null(credentials.endpoint);
    s3_credentials_free(&credentials);
}

static void test_anonymous(void **state)
{
    (void)state;
    home_make("[public]\nregion = x\n", "");
    struct s3_credentials credentials;
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_null(credentials.access_key);
    assert_string_equal(credentials.region, "us-east-1");
    s3_credentials_free(&credentials);
    setenv("AWS_PROFILE", "public", 1);
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_OK);
    assert_null(credentials.access_key);
    s3_credentials_free(&credentials);
    setenv("AWS_ACCESS_KEY_ID", "K", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "S", 1);
    assert_int_equal(s3_credentials_load(&credentials, true), EXIT_OK);
    assert_null(credentials.access_key);
    assert_null(credentials.secret_key);
    s3_credentials_free(&credentials);
}

static void test_errors(void **state)
{
    (void)state;
    home_make("[default]\naws_access_key_id = K\n", "[default]\nthis line has no equals sign\n");
    struct s3_credentials credentials;
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), ".aws/config: line 2: not"));
    s3_credentials_free(&credentials);
    home_make("[default]\naws_access_key_id = K\n", "");
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_TRANSFER);
    assert_string_equal(error_message(), "incomplete S3 credentials: profile default: an access "
                        "key without its secret key, or a secret key without its access key");
    s3_credentials_free(&credentials);
    setenv("AWS_PROFILE", "missing", 1);
    assert_int_equal(s3_credentials_load(&credentials, false), EXIT_TRANSFER);
    assert_string_equal(error_message(), "unknown AWS profile: missing: neither "
                        "~/.aws/credentials nor ~/.aws/config has it");
    s3_credentials_free(&credentials);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_environment_first),
        cmocka_unit_test(test_named_profile),
        cmocka_unit_test(test_anonymous),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
