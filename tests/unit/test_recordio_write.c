/* Unit tests of the RecordIO writer: whole records, padding, the cflag parts dmlc-core writes
   around an aligned magic (at the start, in the middle, twice in a row), unaligned magics kept,
   the image header's bytes and the size limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "exporters/recordio_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t magic[4] = {0x0a, 0x23, 0xd7, 0xce};

/* Writes PAYLOAD as one record into memory; returns the bytes and their count. */
static uint8_t *record(const uint8_t *payload, size_t size, size_t *length)
{
    char *bytes = NULL;
    size_t stream_size = 0;
    FILE *stream = open_memstream(&bytes, &stream_size);
    uint64_t written = 0;
    assert_int_equal(recordio_write(stream, "memory", payload, size, &written), EXIT_OK);
    fclose(stream);
    assert_int_equal(written, stream_size);
    *length = stream_size;
    return (uint8_t *)bytes;
}

static uint32_t word(const uint8_t *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

static void check_whole_record_padded(void **state)
{
    (void)state;
    const uint8_t payload[5] = {1, 2, 3, 4, 5};
    size_t length;
    uint8_t *bytes = record(payload, sizeof payload, &length);
    assert_int_equal(length, 16);
    assert_int_equal(word(bytes), RECORDIO_MAGIC);
    assert_int_equal(word(bytes + 4), 5); /* cflag 0 */
    assert_memory_equal(bytes + 8, payload, 5);
    const uint8_t zeros[3] = {0};
    assert_memory_equal(bytes + 13, zeros, 3);
    free(bytes);
}

static void check_magic_in_the_middle(void **state)
{
    (void)state;
    uint8_t payload[10] = {1, 2, 3, 4, 0, 0, 0, 0, 9, 9};
    memcpy(payload + 4, magic, 4);
    size_t length;
    uint8_t *bytes = record(payload, sizeof payload, &length);
    /* part 1: cflag 1, the 4 bytes before; part 2: cflag 3, the 2 after, padded to 4 */
    assert_int_equal(length, 8 + 4 + 8 + 4);
    assert_int_equal(word(bytes + 4), 1u << 29 | 4);
    assert_memory_equal(bytes + 8, payload, 4);
    assert_int_equal(word(bytes + 12), RECORDIO_MAGIC);
    assert_int_equal(word(bytes + 16), 3u << 29 | 2);
    assert_memory_equal(bytes + 20, payload + 8, 2);
    free(bytes);
}

static void check_magics_at_start_and_twice(void **state)
{
    (void)state;
    uint8_t payload[12];
    memcpy(payload, magic, 4);
    memcpy(payload + 4, magic, 4);
    memcpy(payload + 8, "abcd", 4);
    size_t length;
    uint8_t *bytes = record(payload, sizeof payload, &length);
    /* cflag 1 empty, cflag 2 empty, cflag 3 "abcd" */
    assert_int_equal(length, 8 + 8 + 12);
    assert_int_equal(word(bytes + 4), 1u << 29);
    assert_int_equal(word(bytes + 12), 2u << 29);
    assert_int_equal(word(bytes + 20), 3u << 29 | 4);
    assert_memory_equal(bytes + 24, "abcd", 4);
    free(bytes);
}

static void check_unaligned_or_trailing_magic_kept(void **state)
{
    (void)state;
    uint8_t payload[9] = {0};
    memcpy(payload + 1, magic, 4); /* offset 1: not aligned */
    size_t length;
    uint8_t *bytes = record(payload, sizeof payload, &length);
    assert_int_equal(word(bytes + 4), 9);
    assert_memory_equal(bytes + 8, payload, 9);
    free(bytes);
    uint8_t tail[7] = {0};
    memcpy(tail + 3, magic, 4); /* offset 3, ending the payload unaligned */
    bytes = record(tail, sizeof tail, &length);
    assert_int_equal(word(bytes + 4), 7);
    free(bytes);
}

static void check_image_header(void **state)
{
    (void)state;
    uint8_t header[RECORDIO_IMAGE_HEADER_SIZE];
    recordio_image_header(header, 2, 1.5f, 0x0102030405060708u, 9);
    const uint8_t expected[RECORDIO_IMAGE_HEADER_SIZE] = {
        2, 0, 0, 0, 0x00, 0x00, 0xc0, 0x3f, 8, 7, 6, 5, 4, 3, 2, 1, 9, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(header, expected, sizeof expected);
}

static void check_too_large_refused(void **state)
{
    (void)state;
    uint64_t written = 0;
    FILE *stream = fopen("/dev/null", "wb");
    uint8_t byte = 0;
    assert_int_equal(recordio_write(stream, "null", &byte, RECORDIO_MAX_PAYLOAD, &written),
                     EXIT_USAGE);
    assert_int_equal(written, 0);
    fclose(stream);
}

/* A full disk: the message names the file and the system's reason. */
static void check_full_disk_named(void **state)
{
    (void)state;
    uint64_t written = 0;
    FILE *stream = fopen("/dev/full", "wb");
    assert_non_null(stream);
    setvbuf(stream, NULL, _IONBF, 0);
    uint8_t payload[64] = {1, 2, 3};
    error_clear();
    assert_int_equal(recordio_write(stream, "/dev/full", payload, sizeof payload, &written),
                     EXIT_WRITE);
    assert_string_equal(error_message(), "cannot write: /dev/full: No space left on device");
    assert_int_equal(written, 0);
    fclose(stream);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_whole_record_padded),
        cmocka_unit_test(check_magic_in_the_middle),
        cmocka_unit_test(check_magics_at_start_and_twice),
        cmocka_unit_test(check_unaligned_or_trailing_magic_kept),
        cmocka_unit_test(check_image_header),
        cmocka_unit_test(check_too_large_refused),
        cmocka_unit_test(check_full_disk_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
