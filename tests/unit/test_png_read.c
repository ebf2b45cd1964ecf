/* Unit tests for common/png_rgb.c: color types and depths to RGB, planar order, refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/png/png_read.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct encoded {
    uint8_t *bytes;
    size_t size;
};

static void append_to_memory(png_structp png, png_bytep data, size_t length)
{
    struct encoded *encoded = png_get_io_ptr(png);
    encoded->bytes = realloc(encoded->bytes, encoded->size + length);
    assert_non_null(encoded->bytes);
    memcpy(encoded->bytes + encoded->size, data, length);
    encoded->size += length;
}

static void flush_nothing(png_structp png)
{
    (void)png;
}

/* Encodes WIDTH x HEIGHT samples (rows packed as libpng expects them) with the given IHDR. */
static struct encoded encode(uint32_t width, uint32_t height, int bit_depth, int color_type,
                             int interlace, const uint8_t *samples, size_t row_bytes,
                             const png_color *palette, int palette_size)
{
    struct encoded encoded = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_non_null(info);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not encode the test image");
    png_set_write_fn(png, &encoded, append_to_memory, flush_nothing);
    png_set_IHDR(png, info, width, height, bit_depth, color_type, interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette != NULL)
        png_set_PLTE(png, info, palette, palette_size);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++)
        for (uint32_t row = 0; row < height; row++)
            png_write_row(png, samples + row * row_bytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return encoded;
}

static void assert_decodes_to(struct encoded encoded, uint32_t width, uint32_t height,
                              const uint8_t *expected_planar)
{
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(encoded.bytes, encoded.size, "x.png", &image), EXIT_OK);
    assert_int_equal(image.width, width);
    assert_int_equal(image.height, height);
    assert_memory_equal(image.pixels, expected_planar, 3 * (size_t)width * height);
    png_rgb_free(&image);
    free(encoded.bytes);
}

static void rgb_is_returned_channel_major(void **state)
{
    (void)state;
    /* 2 x 2 pixels, row-major interleaved: (1,2,3) (4,5,6) / (7,8,9) (10,11,12) */
    const uint8_t samples[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const uint8_t planar[] = {1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12};
    assert_decodes_to(encode(2, 2, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, samples, 6, NULL, 0),
                      2, 2, planar);
}

static void non_square_image_keeps_rows_and_columns(void **state)
{
    (void)state;
    /* 3 wide, 1 high */
    const uint8_t samples[] = {10, 20, 30, 40, 50, 60, 70, 80, 90};
    const uint8_t planar[] = {10, 40, 70, 20, 50, 80, 30, 60, 90};
    assert_decodes_to(encode(3, 1, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, samples, 9, NULL, 0),
                      3, 1, planar);
}

static void interlaced_image_is_deinterlaced(void **state)
{
    (void)state;
    uint8_t samples[9 * 9 * 3];
    uint8_t planar[sizeof samples];
    for (size_t pixel = 0; pixel < 81; pixel++)
        for (size_t channel = 0; channel < 3; channel++) {
            samples[pixel * 3 + channel] = (uint8_t)(pixel * 3 + channel);
            planar[channel * 81 + pixel] = (uint8_t)(pixel * 3 + channel);
        }
    assert_decodes_to(encode(9, 9, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7, samples, 27, NULL, 0),
                      9, 9, planar);
}

static void alpha_is_dropped_not_composited(void **state)
{
    (void)state;
    const uint8_t samples[] = {200, 100, 50, 0, 1, 2, 3, 128};
    const uint8_t planar[] = {200, 1, 100, 2, 50, 3};
    assert_decodes_to(
        encode(2, 1, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, samples, 8, NULL, 0), 2, 1,
        planar);
}

static void grayscale_is_replicated_to_three_channels(void **state)
{
    (void)state;
    const uint8_t samples[] = {0, 77, 255};
    const uint8_t planar[] = {0, 77, 255, 0, 77, 255, 0, 77, 255};
    assert_decodes_to(encode(3, 1, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, samples, 3, NULL, 0),
                      3, 1, planar);
}

static void low_depth_grayscale_is_scaled_to_eight_bits(void **state)
{
    (void)state;
    /* 1-bit gray: pixels 1, 0, 1, 1 packed in the high bits of one byte */
    const uint8_t samples[] = {0xB0};
    const uint8_t planar[] = {255, 0, 255, 255, 255, 0, 255, 255, 255, 0, 255, 255};
    assert_decodes_to(encode(4, 1, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, samples, 1, NULL, 0),
                      4, 1, planar);
}

static void gray_alpha_becomes_rgb_without_alpha(void **state)
{
    (void)state;
    const uint8_t samples[] = {9, 0, 250, 255};
    const uint8_t planar[] = {9, 250, 9, 250, 9, 250};
    assert_decodes_to(
        encode(2, 1, 8, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, samples, 4, NULL, 0), 2, 1,
        planar);
}

static void palette_is_expanded(void **state)
{
    (void)state;
    const png_color palette[] = {{255, 0, 0}, {0, 128, 0}, {1, 2, 3}};
    const uint8_t samples[] = {2, 0, 1};
    const uint8_t planar[] = {1, 255, 0, 2, 0, 128, 3, 0, 0};
    assert_decodes_to(
        encode(3, 1, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, samples, 3, palette, 3), 3, 1,
        planar);
}

static void sixteen_bit_keeps_the_high_byte(void **state)
{
    (void)state;
    /* one pixel, big-endian samples 0x12FF, 0xAB00, 0x0180 */
    const uint8_t samples[] = {0x12, 0xFF, 0xAB, 0x00, 0x01, 0x80};
    const uint8_t planar[] = {0x12, 0xAB, 0x01};
    assert_decodes_to(encode(1, 1, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, samples, 6, NULL, 0),
                      1, 1, planar);
}

static void put_big_endian(uint8_t *bytes, uint32_t value)
{
    bytes[0] = (uint8_t)(value >> 24);
    bytes[1] = (uint8_t)(value >> 16);
    bytes[2] = (uint8_t)(value >> 8);
    bytes[3] = (uint8_t)value;
}

static size_t put_chunk(uint8_t *bytes, const char *type, const uint8_t *data, uint32_t length)
{
    put_big_endian(bytes, length);
    memcpy(bytes + 4, type, 4);
    if (length > 0)
        memcpy(bytes + 8, data, length);
    put_big_endian(bytes + 8 + length, (uint32_t)crc32(0, bytes + 4, 4 + length));
    return 12 + length;
}

/* A PNG whose IHDR declares WIDTH x HEIGHT RGB, followed by a tiny IDAT and IEND. */
static size_t tiny_png_declaring(uint8_t *bytes, uint32_t width, uint32_t height)
{
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    uint8_t header[13] = {0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0};
    put_big_endian(header, width);
    put_big_endian(header + 4, height);
    uint8_t deflated[32];
    uLongf deflated_size = sizeof deflated;
    const uint8_t zeros[16] = {0};
    assert_int_equal(compress(deflated, &deflated_size, zeros, sizeof zeros), Z_OK);
    memcpy(bytes, signature, 8);
    size_t size = 8 + put_chunk(bytes + 8, "IHDR", header, 13);
    size += put_chunk(bytes + size, "IDAT", deflated, (uint32_t)deflated_size);
    return size + put_chunk(bytes + size, "IEND", NULL, 0);
}

static void absurd_declared_size_is_refused(void **state)
{
    (void)state;
    uint8_t bytes[128];
    size_t size = tiny_png_declaring(bytes, 100000, 100000);
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(bytes, size, "train/7.png", &image), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "train/7.png"));
    assert_non_null(strstr(error_message(), "100000x100000"));
    assert_null(image.pixels);
}

static void size_beyond_what_the_bytes_can_inflate_to_is_refused(void **state)
{
    (void)state;
    /* 4000 x 4000 RGB is 48 MB of rows: not from 80 bytes */
    uint8_t bytes[128];
    size_t size = tiny_png_declaring(bytes, 4000, 4000);
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(bytes, size, "a.png", &image), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "4000x4000"));
}

static void truncated_image_is_refused(void **state)
{
    (void)state;
    const uint8_t samples[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    struct encoded encoded =
        encode(2, 2, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, samples, 6, NULL, 0);
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(encoded.bytes, encoded.size - 30, "b.png", &image),
                     EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "cannot decode PNG: b.png: "));
    assert_null(image.pixels);
    free(encoded.bytes);
}

static void corrupted_data_is_refused(void **state)
{
    (void)state;
    const uint8_t samples[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    struct encoded encoded =
        encode(2, 2, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, samples, 6, NULL, 0);
    encoded.bytes[40] ^= 0xFF; /* inside IDAT: the chunk CRC no longer matches */
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(encoded.bytes, encoded.size, "c.png", &image),
                     EXIT_CORRUPT_INPUT);
    free(encoded.bytes);
}

static void non_png_bytes_are_refused(void **state)
{
    (void)state;
    struct png_rgb image;
    assert_int_equal(png_rgb_decode("GIF89a....", 10, "d.png", &image), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot decode PNG: d.png: no PNG signature");
    assert_int_equal(png_rgb_decode("", 0, "e.png", &image), EXIT_CORRUPT_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rgb_is_returned_channel_major),
        cmocka_unit_test(non_square_image_keeps_rows_and_columns),
        cmocka_unit_test(interlaced_image_is_deinterlaced),
        cmocka_unit_test(alpha_is_dropped_not_composited),
        cmocka_unit_test(grayscale_is_replicated_to_three_channels),
        cmocka_unit_test(low_depth_grayscale_is_scaled_to_eight_bits),
        cmocka_unit_test(gray_alpha_becomes_rgb_without_alpha),
        cmocka_unit_test(palette_is_expanded),
        cmocka_unit_test(sixteen_bit_keeps_the_high_byte),
        cmocka_unit_test(absurd_declared_size_is_refused),
        cmocka_unit_test(size_beyond_what_the_bytes_can_inflate_to_is_refused),
        cmocka_unit_test(truncated_image_is_refused),
        cmocka_unit_test(corrupted_data_is_refused),
        cmocka_unit_test(non_png_bytes_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
