/* Unit tests for common/base/hash_stream.c: streams hashed on the hashing threads give the digests
   hash_memory_digests gives, however their appends interleave, from one thread or several, and
   the threads stop and start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash_stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* More than the blocks in flight hold (6 of 256 KiB, grown to 24 while appends outrun the hashers),
   in appends of odd sizes. */
enum { SIZE = 13 * (1 << 20) + 3, PART = 300007 };

static unsigned char *bytes_made(unsigned seed)
{
    unsigned char *bytes = malloc(SIZE);
    uint32_t value = seed;
    for (size_t index = 0; index < SIZE; index++) {
        value = value * 1103515245u + 12345u;
        bytes[index] = (unsigned char)(value >> 16);
    }
    return bytes;
}

static void assert_digests(struct hash_stream *stream, const unsigned char *bytes, size_t size,
                           bool md5)
{
    struct file_digests streamed, expected;
    hash_stream_finish(stream, &streamed);
    assert_int_equal(hash_memory_digests(bytes, size, md5, &expected), EXIT_OK);
    assert_int_equal(streamed.size, expected.size);
    assert_string_equal(streamed.sha256, expected.sha256);
    assert_string_equal(streamed.md5, expected.md5);
    assert_int_equal(streamed.head_length, expected.head_length);
    assert_memory_equal(streamed.head, expected.head, expected.head_length);
    assert_int_equal(streamed.tail_length, expected.tail_length);
    assert_memory_equal(streamed.tail, expected.tail, expected.tail_length);
}

static void test_interleaved(void **state)
{
    (void)state;
    unsigned char *first = bytes_made(1), *second = bytes_made(2);
    struct hash_stream *one, *two;
    assert_int_equal(hash_stream_create(&one, true), EXIT_OK);
    assert_int_equal(hash_stream_create(&two, false), EXIT_OK);
    for (size_t offset = 0; offset < SIZE; offset += PART) {
        size_t part = SIZE - offset < PART ? SIZE - offset : PART;
        hash_stream_append(one, first + offset, part);
        hash_stream_append(two, second + offset, part / 2);
        hash_stream_append(two, second + offset + part / 2, part - part / 2);
    }
    assert_digests(one, first, SIZE, true);
    assert_digests(two, second, SIZE, false);
    hash_stream_free(one);
    hash_stream_free(two);
    free(first);
    free(second);
}

struct appender {
    struct hash_stream *stream;
    const unsigned char *bytes;
};

static void *append_all(void *argument)
{
    struct appender *appender = argument;
    for (size_t offset = 0; offset < SIZE; offset += PART)
        hash_stream_append(appender->stream, appender->bytes + offset,
                           SIZE - offset < PART ? SIZE - offset : PART);
    return NULL;
}

/* Three readers appending at once, each to its own stream, keep every block in flight: each then
   waits for a free one, and every stream stays in order for both hashing threads. */
static void test_appenders_hash_when_full(void **state)
{
    (void)state;
    enum { COUNT = 3 };
    struct appender appenders[COUNT];
    pthread_t threads[COUNT];
    for (unsigned index = 0; index < COUNT; index++) {
        appenders[index].bytes = bytes_made(index + 3);
        assert_int_equal(hash_stream_create(&appenders[index].stream, index == 1), EXIT_OK);
        assert_int_equal(pthread_create(&threads[index], NULL, append_all, &appenders[index]), 0);
    }
    for (unsigned index = 0; index < COUNT; index++) {
        pthread_join(threads[index], NULL);
        assert_digests(appenders[index].stream, appenders[index].bytes, SIZE, index == 1);
        hash_stream_free(appenders[index].stream);
        free((void *)appenders[index].bytes);
    }
}

/* The thread stops with the last stream and starts again with the next; a short and an empty
   stream keep their first and last bytes. */
static void test_again_and_short(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        struct hash_stream *stream, *empty;
        assert_int_equal(hash_stream_create(&stream, true), EXIT_OK);
        assert_int_equal(hash_stream_create(&empty, true), EXIT_OK);
        hash_stream_append(stream, "ab", 2);
        hash_stream_append(stream, "c", 1);
        assert_digests(stream, (const unsigned char *)"abc", 3, true);
        assert_digests(empty, (const unsigned char *)"", 0, true);
        hash_stream_free(stream);
        hash_stream_free(empty);
    }
    hash_stream_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_appenders_hash_when_full),
        cmocka_unit_test(test_again_and_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
