/* Unit tests of the IDX reader: headers, data, gzip and plain files, and every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "converters/idx_read.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static char path[4200];

static size_t image_file(unsigned char *bytes, uint32_t count)
{
    unsigned char header[16] = {0, 0, 8, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3};
    header[7] = (unsigned char)count;
    memcpy(bytes, header, sizeof header);
    for (uint32_t index = 0; index < count * 6; index++)
        bytes[16 + index] = (unsigned char)(index * 7);
    return 16 + count * 6;
}

static void write_gzip(const char *name, const unsigned char *bytes, size_t size)
{
    snprintf(path, sizeof path, "%s/%s", test_directory, name);
    gzFile file = gzopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(gzwrite(file, bytes, (unsigned)size), (int)size);
    gzclose(file);
}

static void write_plain(const char *name, const unsigned char *bytes, size_t size)
{
    snprintf(path, sizeof path, "%s/%s", test_directory, name);
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(bytes, 1, size, file), size);
    fclose(file);
}

static void check_reads_images(void)
{
    struct idx_reader *reader;
    struct idx_header header;
    unsigned char data[64];
    assert_int_equal(idx_open(&reader, path, &header, 2), EXIT_OK);
    assert_int_equal(header.magic, 2051);
    assert_int_equal(header.element_type, IDX_UNSIGNED_BYTE);
    assert_int_equal(header.rank, 3);
    assert_int_equal(header.dimensions[0], 4);
    assert_int_equal(header.dimensions[1], 2);
    assert_int_equal(header.dimensions[2], 3);
    assert_int_equal(idx_data_size(&header), 24);
    assert_int_equal(idx_read(reader, data, 24), EXIT_OK);
    assert_int_equal(data[5], 35);
    assert_int_equal(data[23], (unsigned char)(23 * 7));
    assert_int_equal(idx_finish(reader), EXIT_OK);
    idx_close(reader);
}

static void test_gzip_file(void **state)
{
    (void)state;
    unsigned char bytes[64];
    write_gzip("images.gz", bytes, image_file(bytes, 4));
    check_reads_images();
}

static void test_plain_file(void **state)
{
    (void)state;
    unsigned char bytes[64];
    write_plain("images", bytes, image_file(bytes, 4));
    check_reads_images();
}

static void expect_open_failure(int code, const char *fragment)
{
    struct idx_reader *reader;
    struct idx_header header;
    assert_int_equal(idx_open(&reader, path, &header, 2), code);
    assert_non_null(strstr(error_message(), fragment));
    assert_non_null(strstr(error_message(), path));
}

static void test_missing_file(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/absent.gz", test_directory);
    expect_open_failure(EXIT_MISSING_INPUT, "No such file");
}

static void test_wrong_magic(void **state)
{
    (void)state;
    unsigned char bytes[64];
    size_t size = image_file(bytes, 4);
    bytes[0] = 0x1f;
    write_gzip("wrong.gz", bytes, size);
    expect_open_failure(EXIT_CORRUPT_INPUT, "not an IDX file");
}

static void test_truncated_header(void **state)
{
    (void)state;
    unsigned char bytes[64];
    image_file(bytes, 4);
    write_gzip("short.gz", bytes, 10);
    expect_open_failure(EXIT_CORRUPT_INPUT, "cannot read IDX header");
}

static void expect_data_failure(const char *fragment, int finish)
{
    struct idx_reader *reader = NULL;
    struct idx_header header;
    unsigned char data[64];
    /* zlib may inflate a small stream whole on the first read and report its trailer then. */
    int result = idx_open(&reader, path, &header, 2);
    if (result == EXIT_OK)
        result = idx_read(reader, data, 24);
    if (finish && result == EXIT_OK)
        result = idx_finish(reader);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), fragment));
    const char *named = strstr(error_message(), path);
    assert_non_null(named);
    assert_null(strstr(named + strlen(path), path));
    if (reader != NULL)
        idx_close(reader);
}

static void test_truncated_data(void **state)
{
    (void)state;
    unsigned char bytes[64];
    image_file(bytes, 4);
    write_gzip("cut.gz", bytes, 30);
    expect_data_failure("cannot read IDX data", 0);
}

static void test_truncated_gzip_stream(void **state)
{
    (void)state;
    unsigned char bytes[64];
    write_gzip("whole.gz", bytes, image_file(bytes, 4));
    FILE *file = fopen(path, "rb");
    unsigned char compressed[256];
    size_t size = fread(compressed, 1, sizeof compressed, file);
    fclose(file);
    write_plain("cut-stream.gz", compressed, size - 6);
    expect_data_failure("cannot read IDX data", 1);
}

static void test_corrupt_checksum(void **state)
{
    (void)state;
    unsigned char bytes[64];
    write_gzip("whole.gz", bytes, image_file(bytes, 4));
    FILE *file = fopen(path, "rb");
    unsigned char compressed[256];
    size_t size = fread(compressed, 1, sizeof compressed, file);
    fclose(file);
    compressed[size - 8] ^= 0xff;
    write_plain("bad-crc.gz", compressed, size);
    expect_data_failure("invalid compressed data--crc error", 1);
}

static void test_extra_data(void **state)
{
    (void)state;
    unsigned char bytes[64];
    size_t size = image_file(bytes, 4);
    bytes[size] = 1;
    write_gzip("long.gz", bytes, size + 1);
    expect_data_failure("more data than the header declares", 1);
}

/* Dimensions are checked against the file before anything is sized by them. */
static void test_declared_size_beyond_the_file(void **state)
{
    (void)state;
    struct idx_reader *reader = NULL;
    struct idx_header header;
    unsigned char bytes[64];
    size_t size = image_file(bytes, 4);
    bytes[7] = 5; /* 5 images declared, 4 stored */
    write_plain("five", bytes, size);
    assert_int_equal(idx_open(&reader, path, &header, 2), EXIT_CORRUPT_INPUT);
    assert_null(reader);
    assert_non_null(strstr(error_message(), "IDX header declares more data than the file can "
                                            "hold: "));
    assert_non_null(strstr(error_message(), ": 30 bytes declared, a plain file of 40 bytes"));
    /* 2^32-1 images of 2x3 in a gzip file of a few dozen bytes: beyond any deflate ratio. */
    bytes[4] = bytes[5] = bytes[6] = bytes[7] = 0xFF;
    write_gzip("many.gz", bytes, size);
    assert_int_equal(idx_open(&reader, path, &header, 2), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), ": 25769803770 bytes declared, a gzipped file of "));
    /* Within the ratio, the file is opened and the data found missing when read. */
    bytes[4] = bytes[5] = bytes[6] = 0;
    bytes[7] = 200;
    write_gzip("short.gz", bytes, size);
    assert_int_equal(idx_open(&reader, path, &header, 2), EXIT_OK);
    idx_close(reader);
}

static void test_data_size_saturates(void **state)
{
    (void)state;
    struct idx_header header = {.magic = 0x0D04, .element_type = 0x0E, .rank = 4,
                                .dimensions = {UINT32_MAX, UINT32_MAX, UINT32_MAX, 2}};
    assert_true(idx_data_size(&header) == UINT64_MAX);
    header.rank = 1;
    assert_true(idx_data_size(&header) == 8 * (uint64_t)UINT32_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gzip_file),        cmocka_unit_test(test_plain_file),
        cmocka_unit_test(test_missing_file),     cmocka_unit_test(test_wrong_magic),
        cmocka_unit_test(test_truncated_header), cmocka_unit_test(test_truncated_data),
        cmocka_unit_test(test_truncated_gzip_stream), cmocka_unit_test(test_corrupt_checksum),
        cmocka_unit_test(test_extra_data),
        cmocka_unit_test(test_declared_size_beyond_the_file),
        cmocka_unit_test(test_data_size_saturates),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
