/* Unit tests for exporters/crc32c.c and tfrecord.c: known CRC-32C vectors (RFC 3720 B.4),
   the instruction against the tables, and records read back by tests/helpers/tfrecord.py, a
   reader written from the format's specification that checks both CRCs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "exporters/crc32c.h"
#include "exporters/tfrecord_write.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t (*crc_function)(uint32_t crc, const void *data, size_t size);

static void assert_vectors(crc_function compute)
{
    unsigned char bytes[32];
    assert_int_equal(compute(0, "123456789", 9), 0xe3069283u);
    memset(bytes, 0, sizeof bytes);
    assert_int_equal(compute(0, bytes, sizeof bytes), 0x8a9136aau);
    memset(bytes, 0xff, sizeof bytes);
    assert_int_equal(compute(0, bytes, sizeof bytes), 0x62a8ab43u);
    for (int index = 0; index < 32; index++)
        bytes[index] = (unsigned char)index;
    assert_int_equal(compute(0, bytes, sizeof bytes), 0x46dd794eu);
    for (int index = 0; index < 32; index++)
        bytes[index] = (unsigned char)(31 - index);
    assert_int_equal(compute(0, bytes, sizeof bytes), 0x113fdb5cu);
    assert_int_equal(compute(0, "", 0), 0);
    assert_int_equal(compute(0x12345678u, "", 0), 0x12345678u);
}

static void test_known_vectors(void **state)
{
    (void)state;
    assert_vectors(crc32c_software);
    assert_vectors(crc32c);
    if (!crc32c_hardware_available())
        skip();
    assert_vectors(crc32c_hardware);
}

/* Every length to 1,100 at every alignment to 16, and in two pieces split anywhere. */
static void test_hardware_and_tables_agree(void **state)
{
    (void)state;
    enum { SIZE = 1100 + 16 };
    static unsigned char bytes[SIZE];
    unsigned generator = 7;
    for (size_t index = 0; index < SIZE; index++) {
        generator = generator * 1103515245u + 12345u;
        bytes[index] = (unsigned char)(generator >> 24);
    }
    bool hardware = crc32c_hardware_available();
    for (size_t offset = 0; offset < 16; offset++)
        for (size_t length = 0; length + offset <= SIZE && length <= 1100; length++) {
            uint32_t expected = crc32c_software(0, bytes + offset, length);
            assert_int_equal(crc32c(0, bytes + offset, length), expected);
            if (hardware)
                assert_int_equal(crc32c_hardware(0, bytes + offset, length), expected);
            size_t split = (length * 7) / 11;
            uint32_t first = crc32c_software(0, bytes + offset, split);
            assert_int_equal(crc32c_software(first, bytes + offset + split, length - split),
                             expected);
            if (hardware)
                assert_int_equal(crc32c_hardware(crc32c_hardware(0, bytes + offset, split),
                                                 bytes + offset + split, length - split),
                                 expected);
        }
    if (!hardware)
        skip();
}

static void test_mask(void **state)
{
    (void)state;
    assert_int_equal(tfrecord_mask(0), 0xa282ead8u);
    assert_int_equal(tfrecord_mask(0xffffffffu), 0xa282ead7u);
    assert_int_equal(tfrecord_mask(0x12345678u), 0x4f730f40u);
    assert_int_equal(tfrecord_mask(0xe3069283u), 0xc78ab0e5u);
}

static void test_record_bytes(void **state)
{
    (void)state;
    unsigned char output[32];
    const unsigned char hello[] = {5, 0, 0, 0, 0, 0, 0, 0, 0xea, 0xb2, 0x04, 0x3e,
                                   'h', 'e', 'l', 'l', 'o', 0xbb, 0x1f, 0x1c, 0x19};
    assert_int_equal(tfrecord_encode(output, sizeof output, "hello", 5), sizeof hello);
    assert_memory_equal(output, hello, sizeof hello);
    const unsigned char empty[] = {0, 0, 0, 0, 0, 0, 0, 0, 0x29, 0x03, 0x98, 0x07,
                                   0xd8, 0xea, 0x82, 0xa2};
    assert_int_equal(tfrecord_encode(output, sizeof output, "", 0), sizeof empty);
    assert_memory_equal(output, empty, sizeof empty);
    /* Exactly the room it needs, a byte less, and the data already in place. */
    assert_int_equal(tfrecord_encode(output, 21, "hello", 5), 21);
    assert_int_equal(tfrecord_encode(output, 20, "hello", 5), 0);
    memset(output, 0, sizeof output);
    memcpy(output + TFRECORD_HEADER_SIZE, "hello", 5);
    assert_int_equal(tfrecord_encode(output, 21, output + TFRECORD_HEADER_SIZE, 5), 21);
    assert_memory_equal(output, hello, sizeof hello);
    assert_int_equal(tfrecord_encode(output, sizeof output, "x", SIZE_MAX - 8), 0);
}

static int write_to_file(void *context, const void *bytes, size_t size)
{
    return fwrite(bytes, 1, size, context) == size ? EXIT_OK : EXIT_WRITE;
}

static int calls;

static int fail_second(void *context, const void *bytes, size_t size)
{
    (void)context, (void)bytes, (void)size;
    return ++calls == 2 ? EXIT_WRITE : EXIT_OK;
}

static void test_write_stops_at_the_first_failure(void **state)
{
    (void)state;
    calls = 0;
    assert_int_equal(tfrecord_write(fail_second, NULL, "data", 4), EXIT_WRITE);
    assert_int_equal(calls, 2);
}

enum { NOISE_SIZE = 300000 };

/* The records of the file the Python reader checks: through the callback and into a buffer. */
static const char *write_records(unsigned char *noise)
{
    static char path[512];
    test_path(path, sizeof path, test_directory, "records.tfrecord");
    unsigned generator = 99;
    for (size_t index = 0; index < NOISE_SIZE; index++) {
        generator = generator * 1103515245u + 12345u;
        noise[index] = (unsigned char)(generator >> 24);
    }
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(tfrecord_write(write_to_file, file, "hello", 5), EXIT_OK);
    assert_int_equal(tfrecord_write(write_to_file, file, "", 0), EXIT_OK);
    assert_int_equal(tfrecord_write(write_to_file, file, noise, NOISE_SIZE), EXIT_OK);
    unsigned char *record = malloc(NOISE_SIZE + TFRECORD_OVERHEAD);
    assert_non_null(record);
    size_t size = tfrecord_encode(record, NOISE_SIZE + TFRECORD_OVERHEAD, noise + 1,
                                  NOISE_SIZE - 1);
    assert_int_equal(size, NOISE_SIZE - 1 + TFRECORD_OVERHEAD);
    assert_int_equal(fwrite(record, 1, size, file), size);
    size = tfrecord_encode(record, NOISE_SIZE, "!", 1);
    assert_int_equal(fwrite(record, 1, size, file), size);
    free(record);
    assert_int_equal(fclose(file), 0);
    return path;
}

/* Runs the Python reader with ARGUMENTS; its standard output into OUTPUT; returns its status. */
static int run_reader(const char *arguments, char *output, size_t size)
{
    char command[2048];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/tfrecord.py %s 2>&1",
             arguments);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    size_t read = fread(output, 1, size - 1, pipe);
    output[read] = '\0';
    return pclose(pipe);
}

static void test_python_reader_reads_the_records(void **state)
{
    (void)state;
    unsigned char *noise = malloc(NOISE_SIZE);
    assert_non_null(noise);
    const char *path = write_records(noise);
    char data_path[512], arguments[1200], output[256];
    test_path(data_path, sizeof data_path, test_directory, "records.data");
    snprintf(arguments, sizeof arguments, "unframe %s %s", path, data_path);
    assert_int_equal(run_reader(arguments, output, sizeof output), 0);
    assert_string_equal(output, "5\n0\n300000\n299999\n1\n");
    size_t total = 5 + NOISE_SIZE + (NOISE_SIZE - 1) + 1;
    unsigned char *data = malloc(total + 1);
    assert_non_null(data);
    FILE *file = fopen(data_path, "rb");
    assert_non_null(file);
    assert_int_equal(fread(data, 1, total + 1, file), total);
    fclose(file);
    assert_memory_equal(data, "hello", 5);
    assert_memory_equal(data + 5, noise, NOISE_SIZE);
    assert_memory_equal(data + 5 + NOISE_SIZE, noise + 1, NOISE_SIZE - 1);
    assert_memory_equal(data + total - 1, "!", 1);
    free(data);
    free(noise);
}

/* Flips a bit of the byte at OFFSET of PATH. */
static void flip(const char *path, long offset)
{
    FILE *file = fopen(path, "r+b");
    assert_non_null(file);
    assert_int_equal(fseek(file, offset, SEEK_SET), 0);
    int byte = fgetc(file);
    assert_int_equal(fseek(file, offset, SEEK_SET), 0);
    fputc(byte ^ 0x10, file);
    assert_int_equal(fclose(file), 0);
}

/* The reader this test trusts must refuse a record whose length or data was changed. */
static void test_python_reader_checks_both_crcs(void **state)
{
    (void)state;
    unsigned char *noise = malloc(NOISE_SIZE);
    assert_non_null(noise);
    const char *path = write_records(noise);
    free(noise);
    char arguments[1200], output[256], expected[700];
    snprintf(arguments, sizeof arguments, "unframe %s /dev/null", path);
    /* "hello" takes bytes 0-20, the empty record 21-36; the third record's data starts at 49. */
    flip(path, 49 + 3);
    assert_int_not_equal(run_reader(arguments, output, sizeof output), 0);
    snprintf(expected, sizeof expected, "tfrecord.py: %s: record 2: data CRC mismatch\n", path);
    assert_string_equal(output, expected);
    flip(path, 49 + 3);
    assert_int_equal(run_reader(arguments, output, sizeof output), 0);
    flip(path, 21 + 1);
    assert_int_not_equal(run_reader(arguments, output, sizeof output), 0);
    snprintf(expected, sizeof expected, "tfrecord.py: %s: record 1: length CRC mismatch\n", path);
    assert_string_equal(output, expected);
}

/* Lengths around and past the 6,144-byte blocks the instruction's three streams take, at every
   alignment to 16, whole and in two pieces. */
static void test_hardware_streams_agree_with_tables(void **state)
{
    (void)state;
    if (!crc32c_hardware_available())
        skip();
    enum { SIZE = 3 * 6144 + 64 };
    static unsigned char bytes[SIZE];
    unsigned generator = 11;
    for (size_t index = 0; index < SIZE; index++) {
        generator = generator * 1103515245u + 12345u;
        bytes[index] = (unsigned char)(generator >> 24);
    }
    static const size_t lengths[] = {6143, 6144, 6145, 6151, 12288, 12300, 3 * 6144 + 40};
    for (size_t offset = 0; offset < 16; offset++)
        for (size_t which = 0; which < sizeof lengths / sizeof *lengths; which++) {
            size_t length = lengths[which];
            uint32_t expected = crc32c_software(0, bytes + offset, length);
            assert_int_equal(crc32c_hardware(0, bytes + offset, length), expected);
            size_t split = length / 3 + offset;
            assert_int_equal(crc32c_hardware(crc32c_hardware(0, bytes + offset, split),
                                             bytes + offset + split, length - split),
                             expected);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_vectors),
        cmocka_unit_test(test_hardware_and_tables_agree),
        cmocka_unit_test(test_hardware_streams_agree_with_tables),
        cmocka_unit_test(test_mask),
        cmocka_unit_test(test_record_bytes),
        cmocka_unit_test(test_write_stops_at_the_first_failure),
        cmocka_unit_test(test_python_reader_reads_the_records),
        cmocka_unit_test(test_python_reader_checks_both_crcs),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
