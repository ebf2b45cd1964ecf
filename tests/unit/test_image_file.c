/* Unit tests for packing/image_file.c and jpeg_segments.c: a JPEG whose header lies past 64 KiB
   of metadata is probed from its header segments alone, never read whole; too many small
   segments, or a file that ends before its first scan, are refused naming the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/jpeg/jpeg_write.h"
#include "packing/image_file.h"
#include "packing/jpeg_segments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes a 12 x 20 RGB JPEG to PATH with COUNT comment segments of LENGTH bytes (length field
   included) after its start of image; its first CUT bytes only when CUT is not 0. */
static void hostile_jpeg(const char *path, size_t count, unsigned length, size_t cut)
{
    uint8_t pixels[12 * 20 * 3];
    memset(pixels, 90, sizeof pixels);
    struct jpeg_bytes encoded = {0};
    assert_int_equal(jpeg_encode(pixels, 12, 20, 3, 90, &encoded), EXIT_OK);
    size_t size = 2 + count * (2 + length) + encoded.size - 2;
    unsigned char *bytes = calloc(1, size);
    assert_non_null(bytes);
    memcpy(bytes, encoded.data, 2);
    for (size_t index = 0; index < count; index++) {
        unsigned char *segment = bytes + 2 + index * (2 + length);
        segment[0] = 0xff;
        segment[1] = 0xfe;
        segment[2] = (unsigned char)(length >> 8);
        segment[3] = (unsigned char)length;
    }
    memcpy(bytes + 2 + count * (2 + length), encoded.data + 2, encoded.size - 2);
    FILE *stream = fopen(path, "wb");
    assert_non_null(stream);
    assert_int_equal(fwrite(bytes, 1, cut != 0 ? cut : size, stream), cut != 0 ? cut : size);
    fclose(stream);
    free(bytes);
    jpeg_bytes_free(&encoded);
}

static void a_header_past_the_metadata_is_probed_from_its_segments(void **state)
{
    (void)state;
    char path[] = "/tmp/fuel-image-file-XXXXXX";
    close(mkstemp(path));
    hostile_jpeg(path, 256, 65535, 0); /* 16 MiB of comments before the frame */
    struct image_file file = {0};
    uint64_t shape[3];
    assert_int_equal(image_file_probe(&file, path, shape), EXIT_OK);
    assert_int_equal(shape[0], 3);
    assert_int_equal(shape[1], 12);
    assert_int_equal(shape[2], 20);
    /* Read whole, the probe's buffer grew to the file's 16 MiB. */
    assert_true(file.capacity <= JPEG_SEGMENTS_MAX_BYTES);
    assert_true(file.decoding_bytes > (uint64_t)256 * 65537);
    image_file_free(&file);
    unlink(path);
}

static void too_many_segments_or_none_to_the_scan_are_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/fuel-image-file-XXXXXX";
    close(mkstemp(path));
    hostile_jpeg(path, 2048, 1000, 0); /* 2 MB of comments small enough to be kept */
    struct image_file file = {0};
    uint64_t shape[3];
    assert_int_equal(image_file_probe(&file, path, shape), EXIT_CORRUPT_INPUT);
    char expected[256];
    snprintf(expected, sizeof expected, "cannot decode JPEG: %s: more than 1048576 bytes of "
             "header segments", path);
    assert_string_equal(error_message(), expected);
    hostile_jpeg(path, 64, 65535, 64 * 65537);
    assert_int_equal(image_file_probe(&file, path, shape), EXIT_CORRUPT_INPUT);
    snprintf(expected, sizeof expected, "cannot decode JPEG: %s: its header ends before its "
             "first scan", path);
    assert_string_equal(error_message(), expected);
    image_file_free(&file);
    unlink(path);
    error_clear();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_header_past_the_metadata_is_probed_from_its_segments),
        cmocka_unit_test(too_many_segments_or_none_to_the_scan_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
