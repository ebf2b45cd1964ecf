/* Unit tests of the body pipeline: bytes and digest of what is fed, a resumed prefix, a ring that
   wraps and fills, a cancel that keeps what was fed, a trickle, failures of writer and read-back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/body_pipeline.h"
#include "common/base/error.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { BODY_SIZE = 13 << 20 };

static unsigned char *body_bytes(void)
{
    unsigned char *body = malloc(BODY_SIZE);
    assert_non_null(body);
    for (size_t index = 0; index < BODY_SIZE; index++)
        body[index] = (unsigned char)(index * 31 + index / 4099);
    return body;
}

/* Feeds BODY from OFFSET in pieces of growing sizes, some larger than the ring. */
static void feed_in_pieces(struct body_pipeline *pipeline, const unsigned char *body, size_t offset)
{
    size_t piece = 1;
    while (offset < BODY_SIZE) {
        size_t length = BODY_SIZE - offset < piece ? BODY_SIZE - offset : piece;
        assert_int_equal(body_pipeline_feed(pipeline, body + offset, length), 0);
        offset += length;
        piece = piece * 3 + 7;
    }
}

static void assert_file_holds(const unsigned char *body)
{
    unsigned char *copy = malloc(BODY_SIZE + 1);
    assert_non_null(copy);
    int descriptor = open(test_file, O_RDONLY);
    assert_true(descriptor >= 0);
    size_t total = 0;
    ssize_t count;
    while ((count = read(descriptor, copy + total, BODY_SIZE + 1 - total)) > 0)
        total += (size_t)count;
    close(descriptor);
    assert_int_equal(total, BODY_SIZE);
    assert_memory_equal(copy, body, BODY_SIZE);
    free(copy);
}

static void assert_digest_of_file(const char *hex, enum hash_algorithm algorithm)
{
    char whole[HASH_HEX_SIZE];
    uint64_t size;
    assert_int_equal(hash_file(test_file, algorithm, whole, &size), EXIT_OK);
    assert_int_equal(size, BODY_SIZE);
    assert_string_equal(hex, whole);
}

/* Opens test_file with FLAGS and starts a pipeline on it, the body going after KEPT bytes. */
static struct body_pipeline *start_on_test_file(int flags, uint64_t kept,
                                                enum hash_algorithm algorithm, int *descriptor)
{
    *descriptor = open(test_file, flags);
    assert_true(*descriptor >= 0);
    struct body_pipeline *pipeline;
    assert_int_equal(body_pipeline_start(&pipeline, *descriptor, test_file, kept, algorithm),
                     EXIT_OK);
    return pipeline;
}

/* Finishes PIPELINE successfully into HEX and closes DESCRIPTOR. */
static void finish_and_close(struct body_pipeline *pipeline, int descriptor, char *hex)
{
    assert_int_equal(body_pipeline_finish(pipeline, hex), EXIT_OK);
    close(descriptor);
}

/* Feeds BODY after its first KEPT bytes (already in the file), then checks file and digest. */
static void feed_and_check(const unsigned char *body, int flags, size_t kept,
                           enum hash_algorithm algorithm)
{
    int descriptor;
    struct body_pipeline *pipeline = start_on_test_file(flags, kept, algorithm, &descriptor);
    feed_in_pieces(pipeline, body, kept);
    char hex[HASH_HEX_SIZE];
    finish_and_close(pipeline, descriptor, hex);
    assert_file_holds(body);
    assert_digest_of_file(hex, algorithm);
}

static void test_writes_and_hashes_what_is_fed(void **state)
{
    (void)state;
    unsigned char *body = body_bytes();
    feed_and_check(body, O_RDWR | O_TRUNC, 0, HASH_SHA256);
    free(body);
}

static void test_resumed_prefix_is_hashed_from_the_file(void **state)
{
    (void)state;
    unsigned char *body = body_bytes();
    size_t kept = (3 << 20) + 12345;
    FILE *prefix = fopen(test_file, "wb");
    assert_non_null(prefix);
    assert_int_equal(fwrite(body, 1, kept, prefix), kept);
    assert_int_equal(fclose(prefix), 0);
    feed_and_check(body, O_RDWR, kept, HASH_MD5);
    free(body);
}

static void test_md5_of_an_empty_body(void **state)
{
    (void)state;
    int descriptor;
    struct body_pipeline *pipeline = start_on_test_file(O_RDWR | O_TRUNC, 0, HASH_MD5, &descriptor);
    char hex[HASH_HEX_SIZE];
    finish_and_close(pipeline, descriptor, hex);
    assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
    struct stat status;
    assert_int_equal(stat(test_file, &status), 0);
    assert_int_equal(status.st_size, 0);
}

static void test_cancel_keeps_every_byte_fed(void **state)
{
    (void)state;
    unsigned char *body = body_bytes();
    int descriptor;
    struct body_pipeline *pipeline =
        start_on_test_file(O_RDWR | O_TRUNC, 0, HASH_SHA256, &descriptor);
    assert_int_equal(body_pipeline_feed(pipeline, body, 5 << 20), 0);
    body_pipeline_cancel(pipeline);
    body_pipeline_cancel(NULL);
    close(descriptor);
    struct stat status;
    assert_int_equal(stat(test_file, &status), 0);
    assert_int_equal(status.st_size, 5 << 20);
    free(body);
}

/* A few bytes, far fewer than wake the threads, are written within moments all the same. */
static void test_a_trickle_reaches_the_file_soon(void **state)
{
    (void)state;
    int descriptor;
    struct body_pipeline *pipeline = start_on_test_file(O_RDWR | O_TRUNC, 0, HASH_MD5, &descriptor);
    assert_int_equal(body_pipeline_feed(pipeline, "trickle", 7), 0);
    struct stat status = {0};
    for (int attempt = 0; attempt < 200 && status.st_size != 7; attempt++) {
        usleep(10000);
        assert_int_equal(stat(test_file, &status), 0);
    }
    assert_int_equal(status.st_size, 7);
    char hex[HASH_HEX_SIZE];
    finish_and_close(pipeline, descriptor, hex);
    assert_string_equal(hex, "17d312cb8a57332320bd87d801855c99");
}

/* A descriptor open for reading only: every write fails with EBADF. */
static void test_write_failure_reaches_the_feeder_and_finish(void **state)
{
    (void)state;
    unsigned char *body = body_bytes();
    int descriptor;
    struct body_pipeline *pipeline = start_on_test_file(O_RDONLY, 0, HASH_SHA256, &descriptor);
    int failure = 0;
    for (size_t offset = 0; offset < BODY_SIZE && failure == 0; offset += 1 << 20)
        failure = body_pipeline_feed(pipeline, body + offset, 1 << 20);
    assert_int_equal(failure, EBADF);
    char hex[HASH_HEX_SIZE];
    assert_int_equal(body_pipeline_finish(pipeline, hex), EXIT_WRITE);
    char expected[512];
    snprintf(expected, sizeof expected, "cannot write: %s: %s", test_file, strerror(EBADF));
    assert_string_equal(error_message(), expected);
    close(descriptor);
    free(body);
}

static void test_short_prefix_fails_the_read_back(void **state)
{
    (void)state;
    test_file_make("abc");
    int descriptor;
    struct body_pipeline *pipeline = start_on_test_file(O_RDWR, 10, HASH_MD5, &descriptor);
    char hex[HASH_HEX_SIZE];
    assert_int_equal(body_pipeline_finish(pipeline, hex), EXIT_OTHER);
    assert_non_null(strstr(error_message(), "cannot read back: "));
    close(descriptor);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_and_hashes_what_is_fed),
        cmocka_unit_test(test_resumed_prefix_is_hashed_from_the_file),
        cmocka_unit_test(test_md5_of_an_empty_body),
        cmocka_unit_test(test_cancel_keeps_every_byte_fed),
        cmocka_unit_test(test_a_trickle_reaches_the_file_soon),
        cmocka_unit_test(test_write_failure_reaches_the_feeder_and_finish),
        cmocka_unit_test(test_short_prefix_fails_the_read_back),
    };
    return cmocka_run_group_tests(tests, test_file_setup, test_file_teardown);
}
