/* Unit tests of the read-ahead thread: blocks in order with a short last one, a failing fill
   whose message and code reach the caller after the blocks before it, an early end, and a read
   past the end; streams of unknown length, ended or failing after some bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/read_ahead.h"

#include <string.h>

/* A counting source: byte N of the stream is N % 251; fails at FAIL_AT bytes when set. */
struct counter {
    uint64_t position;
    uint64_t fail_at;
};

static int count_fill(void *source, void *block, size_t size)
{
    struct counter *counter = source;
    if (counter->fail_at != 0 && counter->position + size > counter->fail_at)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read: counter: broken at %llu",
                         (unsigned long long)counter->position);
    unsigned char *bytes = block;
    for (size_t index = 0; index < size; index++)
        bytes[index] = (unsigned char)((counter->position + index) % 251);
    counter->position += size;
    return EXIT_OK;
}

static void test_blocks_arrive_in_order(void **state)
{
    (void)state;
    struct counter counter = {0};
    struct read_ahead *ahead;
    uint64_t total = 10 * 4096 + 100;
    assert_int_equal(read_ahead_start(&ahead, count_fill, &counter, 4096, total), EXIT_OK);
    uint64_t seen = 0;
    for (int index = 0; index < 11; index++) {
        const unsigned char *block;
        size_t size;
        assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OK);
        assert_int_equal(size, index < 10 ? 4096 : 100);
        for (size_t offset = 0; offset < size; offset++)
            assert_int_equal(block[offset], (seen + offset) % 251);
        seen += size;
    }
    assert_int_equal(seen, total);
    const unsigned char *block;
    size_t size;
    assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot read ahead: reading past the end");
    read_ahead_end(ahead);
}

static void test_a_failure_follows_the_blocks_before_it(void **state)
{
    (void)state;
    struct counter counter = {.fail_at = 3 * 1000 + 1};
    struct read_ahead *ahead;
    assert_int_equal(read_ahead_start(&ahead, count_fill, &counter, 1000, 10000), EXIT_OK);
    const unsigned char *block;
    size_t size;
    for (int index = 0; index < 3; index++)
        assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OK);
    error_clear();
    assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot read: counter: broken at 3000");
    assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_CORRUPT_INPUT);
    read_ahead_end(ahead);
}

static void test_an_early_end_stops_the_thread(void **state)
{
    (void)state;
    struct counter counter = {0};
    struct read_ahead *ahead;
    assert_int_equal(read_ahead_start(&ahead, count_fill, &counter, 512, 1 << 30), EXIT_OK);
    const unsigned char *block;
    size_t size;
    assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OK);
    read_ahead_end(ahead);
    assert_true(counter.position <= 3 * 512);
    read_ahead_end(NULL);
}

static void test_an_empty_stream_has_no_block(void **state)
{
    (void)state;
    struct counter counter = {0};
    struct read_ahead *ahead;
    assert_int_equal(read_ahead_start(&ahead, count_fill, &counter, 512, 0), EXIT_OK);
    const unsigned char *block;
    size_t size;
    assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OTHER);
    read_ahead_end(ahead);
    assert_int_equal(counter.position, 0);
}

/* A stream of LENGTH counting bytes whose length the reader does not know; it fails at FAIL_AT. */
struct stream {
    struct counter counter;
    uint64_t length;
};

static int stream_fill(void *source, void *block, size_t size, size_t *filled)
{
    struct stream *stream = source;
    uint64_t left = stream->length - stream->counter.position;
    size_t part = left < size ? (size_t)left : size;
    uint64_t fail_at = stream->counter.fail_at;
    if (fail_at != 0 && stream->counter.position + part >= fail_at)
        part = (size_t)(fail_at - stream->counter.position);
    stream->counter.fail_at = 0;
    count_fill(&stream->counter, block, part);
    stream->counter.fail_at = fail_at;
    *filled = part;
    if (fail_at != 0 && stream->counter.position == fail_at)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read: stream: broken at %llu",
                         (unsigned long long)fail_at);
    return EXIT_OK;
}

/* Reads AHEAD to its end or failure; returns the status and sets *SEEN, checking every byte. */
static int read_stream(struct read_ahead *ahead, uint64_t *seen, size_t block_size)
{
    *seen = 0;
    for (;;) {
        const unsigned char *block;
        size_t size;
        int status = read_ahead_next(ahead, &block, &size);
        if (status != EXIT_OK || size == 0)
            return status;
        assert_true(size <= block_size);
        for (size_t offset = 0; offset < size; offset++)
            assert_int_equal(block[offset], (*seen + offset) % 251);
        *seen += size;
    }
}

static void test_a_stream_of_unknown_length_ends_with_an_empty_block(void **state)
{
    (void)state;
    uint64_t lengths[] = {0, 1, 4096, 3 * 4096, 10 * 4096 + 7};
    for (size_t index = 0; index < sizeof lengths / sizeof lengths[0]; index++) {
        struct stream stream = {.length = lengths[index]};
        struct read_ahead *ahead;
        uint64_t seen;
        assert_int_equal(read_ahead_start_stream(&ahead, stream_fill, &stream, 4096), EXIT_OK);
        assert_int_equal(read_stream(ahead, &seen, 4096), EXIT_OK);
        assert_int_equal(seen, lengths[index]);
        const unsigned char *block;
        size_t size = 1;
        assert_int_equal(read_ahead_next(ahead, &block, &size), EXIT_OK);
        assert_int_equal(size, 0);
        read_ahead_end(ahead);
    }
}

static void test_a_stream_hands_out_the_bytes_before_its_failure(void **state)
{
    (void)state;
    struct stream stream = {.counter = {.fail_at = 2 * 4096 + 10}, .length = 1 << 20};
    struct read_ahead *ahead;
    uint64_t seen;
    assert_int_equal(read_ahead_start_stream(&ahead, stream_fill, &stream, 4096), EXIT_OK);
    error_clear();
    assert_int_equal(read_stream(ahead, &seen, 4096), EXIT_CORRUPT_INPUT);
    assert_int_equal(seen, 2 * 4096 + 10);
    assert_string_equal(error_message(), "cannot read: stream: broken at 8202");
    read_ahead_end(ahead);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_arrive_in_order),
        cmocka_unit_test(test_a_failure_follows_the_blocks_before_it),
        cmocka_unit_test(test_an_early_end_stops_the_thread),
        cmocka_unit_test(test_an_empty_stream_has_no_block),
        cmocka_unit_test(test_a_stream_of_unknown_length_ends_with_an_empty_block),
        cmocka_unit_test(test_a_stream_hands_out_the_bytes_before_its_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
