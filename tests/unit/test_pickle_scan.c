/* Unit tests for common/formats/pickle/pickle_scan.c: long strings found as bytes arrive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/formats/pickle/pickle_scan.h"

#include <stdlib.h>
#include <string.h>

enum { THRESHOLD = 1 << 16, LONG = 70000 };

/* HEAD, then a string of LONG bytes (payload 0xAB) after COUNT_BYTES of little-endian count,
   then TAIL: the pickle in *SIZE bytes; *PAYLOAD is where the string's bytes begin. */
static unsigned char *pickle_with(const char *head, size_t head_size, unsigned count_bytes,
                                  const char *tail, size_t *size, size_t *payload)
{
    size_t tail_size = strlen(tail);
    *size = head_size + count_bytes + LONG + tail_size;
    unsigned char *bytes = malloc(*size);
    assert_non_null(bytes);
    memcpy(bytes, head, head_size);
    for (unsigned index = 0; index < count_bytes; index++)
        bytes[head_size + index] = (unsigned char)((uint64_t)LONG >> (8 * index));
    *payload = head_size + count_bytes;
    memset(bytes + *payload, 0xAB, LONG);
    memcpy(bytes + *payload + LONG, tail, tail_size);
    return bytes;
}

/* A Python 2 protocol 2 CIFAR batch: the rows a BINSTRING inside numpy's reconstruction. */
static const char python2_head[] =
    "\x80\x02}q\x01(U\x0b" "batch_labelq\x02U\x05hellog1\nU\x06labelsq\x03]q\x04(K\x01K\x02"
    "M\x01\x01J\x00\x01\x00\x00" "eU\x04" "dataq\x05" "cnumpy.core.multiarray\n_reconstruct\nq\x06"
    "cnumpy\nndarray\nK\x00\x85U\x01" "b\x87Rq\x07(K\x01K\x02M\x88\x88\x86" "cnumpy\ndtype\n"
    "U\x02u1K\x00K\x01\x87R(K\x03U\x01|NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89T";

static void test_python2_batch_found_at_once_and_bit_by_bit(void **state)
{
    (void)state;
    size_t size, payload;
    unsigned char *bytes = pickle_with(python2_head, sizeof python2_head - 1, 4, "tbu.", &size,
                                       &payload);
    uint64_t position = 0, length = 0;
    assert_int_equal(pickle_scan(bytes, size, &position, THRESHOLD, &length), PICKLE_SCAN_STRING);
    assert_int_equal(position, payload);
    assert_int_equal(length, LONG);
    position += length;
    assert_int_equal(pickle_scan(bytes, size, &position, THRESHOLD, &length), PICKLE_SCAN_END);
    assert_int_equal(position, size - 1);
    position = 0;
    for (uint64_t available = 0; available < payload; available++) {
        assert_int_equal(pickle_scan(bytes, available, &position, THRESHOLD, &length),
                         PICKLE_SCAN_MORE);
        assert_true(position <= payload);
    }
    assert_int_equal(pickle_scan(bytes, payload, &position, THRESHOLD, &length),
                     PICKLE_SCAN_STRING);
    assert_int_equal(position, payload);
    free(bytes);
}

static void test_protocol4_frame_and_bytes8(void **state)
{
    (void)state;
    static const char head[] = "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94\x8c\x04" "data"
                               "\x94\x8a\x02\x01\x02\x8e";
    size_t size, payload;
    unsigned char *bytes = pickle_with(head, sizeof head - 1, 8, "\x94s.", &size, &payload);
    uint64_t position = 0, length = 0;
    assert_int_equal(pickle_scan(bytes, size, &position, THRESHOLD, &length), PICKLE_SCAN_STRING);
    assert_int_equal(position, payload);
    assert_int_equal(length, LONG);
    free(bytes);
}

static void test_text_and_short_strings_passed_over(void **state)
{
    (void)state;
    static const char head[] = "\x80\x02]q\x00(U\x03" "abcC\x02" "deX";
    size_t size, payload;
    unsigned char *bytes = pickle_with(head, sizeof head - 1, 4, "e.", &size, &payload);
    uint64_t position = 0, length = 0;
    assert_int_equal(pickle_scan(bytes, size, &position, THRESHOLD, &length), PICKLE_SCAN_END);
    assert_int_equal(position, size - 1);
    position = 0;
    assert_int_equal(pickle_scan(bytes, size, &position, 3, &length), PICKLE_SCAN_STRING);
    assert_int_equal(position, 8);
    assert_int_equal(length, 3);
    free(bytes);
}

static void test_unknown_or_negative_ends_the_walk(void **state)
{
    (void)state;
    static const unsigned char unknown[] = "\x80\x02K\x01\xffT\x00\x00\x01\x00";
    uint64_t position = 0, length = 0;
    assert_int_equal(pickle_scan(unknown, sizeof unknown - 1, &position, 1, &length),
                     PICKLE_SCAN_END);
    assert_int_equal(position, 4);
    static const unsigned char negative[] = "\x80\x02T\x00\x00\x00\x80";
    position = 0;
    assert_int_equal(pickle_scan(negative, sizeof negative - 1, &position, 1, &length),
                     PICKLE_SCAN_END);
    assert_int_equal(position, 2);
    static const unsigned char line[] = "cnumpy\nndarr";
    position = 0;
    assert_int_equal(pickle_scan(line, sizeof line - 1, &position, 1, &length),
                     PICKLE_SCAN_MORE);
    assert_int_equal(position, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_python2_batch_found_at_once_and_bit_by_bit),
        cmocka_unit_test(test_protocol4_frame_and_bytes8),
        cmocka_unit_test(test_text_and_short_strings_passed_over),
        cmocka_unit_test(test_unknown_or_negative_ends_the_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
