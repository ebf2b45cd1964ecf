/* Unit tests of the download engine through file:// URLs: fallback, verification (by the bytes
   or by the content), skipping, and hosts that do not resolve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/download_run.h"
#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/base/monotonic_clock.h"
#include "common/formats/gzip/inflated_digest.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[] = "/tmp/fuel-test-download-XXXXXX";
static char source[300], target[300], missing_url[400], good_url[512];
static char md5[HASH_HEX_SIZE], sha256[HASH_HEX_SIZE];
enum { FILE_SIZE = 100000 };

static int setup(void **state)
{
    (void)state;
    if (test_directory_create(base) != 0)
        return -1;
    test_path(source, sizeof source, base, "source");
    test_path(target, sizeof target, base, "target");
    char path[400];
    test_path(path, sizeof path, source, "a.bin");
    snprintf(missing_url, sizeof missing_url, "file://%s/missing/a.bin", base);
    snprintf(good_url, sizeof good_url, "file://%s", path);
    if (mkdir(source, 0700) != 0 || mkdir(target, 0700) != 0)
        return -1;
    FILE *stream = fopen(path, "w");
    for (int index = 0; index < FILE_SIZE; index++)
        fputc((index * 7919) % 251, stream);
    fclose(stream);
    uint64_t size;
    if (hash_file(path, HASH_SHA256, sha256, &size) != 0)
        return -1;
    return hash_file(path, HASH_MD5, md5, &size);
}

static int teardown(void **state)
{
    (void)state;
    return test_directory_remove(base);
}

static int clear_target(void **state)
{
    (void)state;
    char path[400];
    test_path(path, sizeof path, target, "a.bin");
    unlink(path);
    test_path(path, sizeof path, target, "a.bin.part");
    unlink(path);
    error_clear();
    return 0;
}

static const struct download_options options = {
    .jobs = 2, .retries = 0, .timeout = 5, .retry_delay = 0, .progress = PROGRESS_QUIET,
};

static const char mismatch_hint[] = "try this", unresolved_hint[] = "try that";

static int fetch(char *const *urls, size_t count, uint64_t size, const char *checksum, bool force)
{
    struct download_options settings = options;
    settings.directory = target;
    settings.force = force;
    struct download_item item = {.name = "a.bin", .urls = urls, .url_count = count, .size = size,
                                 .checksum = checksum};
    return download_run(&item, 1, &settings);
}

/* A fetch of ITEM with the content digest and the hints that fuel-download gives. */
static int fetch_verifying_content(char *const *urls, size_t count, struct download_item item)
{
    struct download_options settings = options;
    settings.directory = target;
    settings.retries = 3;
    settings.retry_delay = 10;
    settings.content_digest = inflated_digest;
    settings.mismatch_hint = mismatch_hint;
    settings.unresolved_hint = unresolved_hint;
    item.name = "a.bin";
    item.urls = urls;
    item.url_count = count;
    return download_run(&item, 1, &settings);
}

static bool exists(const char *name)
{
    char path[400];
    test_path(path, sizeof path, target, name);
    return access(path, F_OK) == 0;
}

static void test_falls_back_to_the_next_url_and_verifies(void **state)
{
    (void)state;
    char *urls[] = {missing_url, good_url};
    assert_int_equal(fetch(urls, 2, FILE_SIZE, md5, false), EXIT_OK);
    char path[400], hex[HASH_HEX_SIZE];
    uint64_t size;
    test_path(path, sizeof path, target, "a.bin");
    assert_int_equal(hash_file(path, HASH_MD5, hex, &size), EXIT_OK);
    assert_string_equal(hex, md5);
    assert_int_equal(size, FILE_SIZE);
    assert_false(exists("a.bin.part"));
}

static void test_every_url_failing_names_each(void **state)
{
    (void)state;
    char *urls[] = {missing_url, missing_url};
    assert_int_equal(fetch(urls, 2, 0, NULL, false), EXIT_TRANSFER);
    char expected[1000];
    snprintf(expected, sizeof expected, "cannot download: a.bin: %s: ", missing_url);
    assert_non_null(strstr(error_message(), expected));
    assert_non_null(strstr(error_message(), "; file://"));
    assert_false(exists("a.bin"));
    assert_false(exists("a.bin.part"));
}

static void test_checksum_mismatch_leaves_nothing(void **state)
{
    (void)state;
    char *urls[] = {good_url};
    assert_int_equal(fetch(urls, 1, 0, "00000000000000000000000000000000", false), EXIT_CHECKSUM);
    char expected[200];
    snprintf(expected, sizeof expected,
             "checksum mismatch: a.bin: expected md5 00000000000000000000000000000000, got %s", md5);
    assert_string_equal(error_message(), expected);
    assert_false(exists("a.bin"));
    assert_false(exists("a.bin.part"));
}

static void test_size_mismatch_leaves_nothing(void **state)
{
    (void)state;
    char *urls[] = {good_url};
    assert_int_equal(fetch(urls, 1, FILE_SIZE + 1, md5, false), EXIT_CHECKSUM);
    assert_string_equal(error_message(), "size mismatch: a.bin: expected 100001 bytes, got 100000");
    assert_int_equal(fetch(urls, 1, FILE_SIZE - 1, md5, false), EXIT_CHECKSUM);
    assert_string_equal(error_message(), "size mismatch: a.bin: expected 99999 bytes, got 100000");
    assert_false(exists("a.bin"));
    assert_false(exists("a.bin.part"));
}

static void test_present_and_verified_is_not_fetched_unless_forced(void **state)
{
    (void)state;
    char *good[] = {good_url}, *missing[] = {missing_url};
    assert_int_equal(fetch(good, 1, FILE_SIZE, md5, false), EXIT_OK);
    assert_int_equal(fetch(missing, 1, FILE_SIZE, md5, false), EXIT_OK);
    assert_int_equal(fetch(missing, 1, FILE_SIZE, md5, true), EXIT_TRANSFER);
    assert_true(exists("a.bin"));
}

static void test_sha256_checksums(void **state)
{
    (void)state;
    char *urls[] = {good_url};
    assert_int_equal(fetch(urls, 1, 0, sha256, false), EXIT_OK);
    assert_true(exists("a.bin"));
}

static void test_other_bytes_of_the_same_content_are_accepted(void **state)
{
    (void)state;
    char *good[] = {good_url}, *missing[] = {missing_url};
    /* The published file is smaller than the one served: the transfer is not cut. */
    struct download_item item = {.size = FILE_SIZE - 1000,
                                 .checksum = "00000000000000000000000000000000",
                                 .content_size = FILE_SIZE, .content_sha256 = sha256};
    assert_int_equal(fetch_verifying_content(good, 1, item), EXIT_OK);
    assert_true(exists("a.bin"));
    assert_false(exists("a.bin.part"));
    /* Present and verified by its content: nothing is fetched. */
    assert_int_equal(fetch_verifying_content(missing, 1, item), EXIT_OK);
}

static void test_other_content_fails_with_the_hint(void **state)
{
    (void)state;
    char *urls[] = {good_url};
    struct download_item item = {.size = FILE_SIZE + 5, .checksum = md5, .content_size = FILE_SIZE,
                                 .content_sha256 = md5};
    assert_int_equal(fetch_verifying_content(urls, 1, item), EXIT_CHECKSUM);
    assert_string_equal(error_message(),
                        "size mismatch: a.bin: expected 100005 bytes, got 100000; try this");
    item = (struct download_item){.checksum = "00000000000000000000000000000000"};
    assert_int_equal(fetch_verifying_content(urls, 1, item), EXIT_CHECKSUM);
    char expected[200];
    snprintf(expected, sizeof expected, "checksum mismatch: a.bin: expected md5 "
             "00000000000000000000000000000000, got %s; try this", md5);
    assert_string_equal(error_message(), expected);
    assert_false(exists("a.bin"));
    assert_false(exists("a.bin.part"));
}

static void test_unresolved_hosts_fail_at_once_in_one_line(void **state)
{
    (void)state;
    char first[] = "http://first.invalid/a.bin", second[] = "http://second.invalid:8080/a.bin";
    char *urls[] = {first, second};
    double started = monotonic_seconds();
    assert_int_equal(fetch_verifying_content(urls, 2, (struct download_item){0}), EXIT_TRANSFER);
    assert_true(monotonic_seconds() - started < 5);
    assert_string_equal(error_message(), "cannot download: a.bin: cannot resolve hosts "
                        "first.invalid, second.invalid; try that");
    /* The same host twice is named once. */
    char *again[] = {first, first};
    assert_int_equal(fetch_verifying_content(again, 2, (struct download_item){0}), EXIT_TRANSFER);
    assert_string_equal(error_message(),
                        "cannot download: a.bin: cannot resolve host first.invalid; try that");
    assert_false(exists("a.bin.part"));
}

static void test_unresolved_and_other_failures_name_each_url(void **state)
{
    (void)state;
    char first[] = "http://first.invalid/a.bin";
    char *urls[] = {first, missing_url};
    assert_int_equal(fetch_verifying_content(urls, 2, (struct download_item){0}), EXIT_TRANSFER);
    char expected[1000];
    snprintf(expected, sizeof expected, "cannot download: a.bin: %s: Could not resolve host: "
             "first.invalid; %s: ", first, missing_url);
    assert_memory_equal(error_message(), expected, strlen(expected));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_falls_back_to_the_next_url_and_verifies, clear_target),
        cmocka_unit_test_setup(test_every_url_failing_names_each, clear_target),
        cmocka_unit_test_setup(test_checksum_mismatch_leaves_nothing, clear_target),
        cmocka_unit_test_setup(test_size_mismatch_leaves_nothing, clear_target),
        cmocka_unit_test_setup(test_present_and_verified_is_not_fetched_unless_forced, clear_target),
        cmocka_unit_test_setup(test_sha256_checksums, clear_target),
        cmocka_unit_test_setup(test_other_bytes_of_the_same_content_are_accepted, clear_target),
        cmocka_unit_test_setup(test_other_content_fails_with_the_hint, clear_target),
        cmocka_unit_test_setup(test_unresolved_hosts_fail_at_once_in_one_line, clear_target),
        cmocka_unit_test_setup(test_unresolved_and_other_failures_name_each_url, clear_target),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
