/* Unit tests of the PNG encoder: gray and RGB images decoded back by libpng (png_rgb) pixel for
   pixel, identical bytes for identical pixels, streamed rows equal to the in-memory image, bad
   shapes and failing row sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/png/png_encode.h"
#include "common/formats/png/png_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 7, HEIGHT = 5 };

static void pixels_make(uint8_t *pixels, int channels)
{
    for (int index = 0; index < WIDTH * HEIGHT * channels; index++)
        pixels[index] = (uint8_t)(index * 37 + 11);
}

static void check_rgb_round_trip(void **state)
{
    (void)state;
    uint8_t pixels[WIDTH * HEIGHT * 3];
    pixels_make(pixels, 3);
    struct png_bytes bytes = {0};
    assert_int_equal(png_encode_memory(pixels, WIDTH, HEIGHT, 3, &bytes), EXIT_OK);
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(bytes.data, bytes.size, "test", &image), EXIT_OK);
    assert_int_equal(image.width, WIDTH);
    assert_int_equal(image.height, HEIGHT);
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++)
            for (int channel = 0; channel < 3; channel++)
                assert_int_equal(image.pixels[(channel * HEIGHT + y) * WIDTH + x],
                                 pixels[(y * WIDTH + x) * 3 + channel]);
    png_rgb_free(&image);
    png_bytes_free(&bytes);
}

static void check_gray_round_trip_and_determinism(void **state)
{
    (void)state;
    uint8_t pixels[WIDTH * HEIGHT];
    pixels_make(pixels, 1);
    struct png_bytes first = {0}, second = {0};
    assert_int_equal(png_encode_memory(pixels, WIDTH, HEIGHT, 1, &first), EXIT_OK);
    assert_int_equal(png_encode_memory(pixels, WIDTH, HEIGHT, 1, &second), EXIT_OK);
    assert_int_equal(first.size, second.size);
    assert_memory_equal(first.data, second.data, first.size);
    struct png_rgb image;
    assert_int_equal(png_rgb_decode(first.data, first.size, "test", &image), EXIT_OK);
    for (int index = 0; index < WIDTH * HEIGHT; index++)
        assert_int_equal(image.pixels[index], pixels[index]);
    png_rgb_free(&image);
    /* the buffer is reused: a second image replaces the first */
    assert_int_equal(png_encode_memory(pixels, 1, 1, 1, &first), EXIT_OK);
    assert_true(first.size < second.size);
    png_bytes_free(&first);
    png_bytes_free(&second);
}

static int rows_of(void *context, uint32_t y, uint8_t *row)
{
    memcpy(row, (const uint8_t *)context + y * WIDTH * 3, WIDTH * 3);
    return 0;
}

static int failing_rows(void *context, uint32_t y, uint8_t *row)
{
    (void)context;
    (void)row;
    return y == 2 ? error_set(EXIT_CORRUPT_INPUT, "row 2 unreadable") : 0;
}

static void check_stream_equals_memory(void **state)
{
    (void)state;
    uint8_t pixels[WIDTH * HEIGHT * 3];
    pixels_make(pixels, 3);
    struct png_bytes bytes = {0};
    assert_int_equal(png_encode_memory(pixels, WIDTH, HEIGHT, 3, &bytes), EXIT_OK);
    char *streamed = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&streamed, &size);
    assert_int_equal(png_encode_stream(stream, "memory", WIDTH, HEIGHT, 3, rows_of, pixels),
                     EXIT_OK);
    fclose(stream);
    assert_int_equal(size, bytes.size);
    assert_memory_equal(streamed, bytes.data, size);
    free(streamed);
    stream = fopen("/dev/null", "wb");
    assert_int_equal(png_encode_stream(stream, "null", WIDTH, HEIGHT, 3, failing_rows, NULL),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "row 2 unreadable");
    fclose(stream);
    png_bytes_free(&bytes);
}

static void check_bad_shapes(void **state)
{
    (void)state;
    uint8_t pixel[4] = {0};
    struct png_bytes bytes = {0};
    assert_int_equal(png_encode_memory(pixel, 1, 1, 2, &bytes), EXIT_USAGE);
    assert_int_equal(png_encode_memory(pixel, 0, 1, 1, &bytes), EXIT_USAGE);
    png_bytes_free(&bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_rgb_round_trip),
        cmocka_unit_test(check_gray_round_trip_and_determinism),
        cmocka_unit_test(check_stream_equals_memory),
        cmocka_unit_test(check_bad_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
