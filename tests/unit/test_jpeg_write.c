/* Unit tests for common/formats/jpeg/jpeg_write.c: what it encodes decodes back (common/formats/jpeg)
   to the same size and channels and close pixels (CMYK as Adobe's inverted CMYK); bad arguments
   are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/jpeg/jpeg_read.h"
#include "common/formats/jpeg/jpeg_write.h"

#include <stdlib.h>
#include <string.h>

/* A smooth gradient of HEIGHT x WIDTH x CHANNELS bytes. */
static uint8_t *gradient(uint32_t height, uint32_t width, uint32_t channels)
{
    uint8_t *pixels = malloc((size_t)height * width * channels);
    assert_non_null(pixels);
    for (uint32_t row = 0; row < height; row++)
        for (uint32_t column = 0; column < width; column++)
            for (uint32_t channel = 0; channel < channels; channel++)
                pixels[((size_t)row * width + column) * channels + channel] =
                    (uint8_t)(20 + row * 150 / height + column * 50 / width + channel * 30);
    return pixels;
}

/* CMYK is stored with an Adobe marker, which PIL (and jpeg_decode) read as inverted values. */
static void assert_round_trip(uint32_t height, uint32_t width, uint32_t channels)
{
    uint8_t *pixels = gradient(height, width, channels);
    struct jpeg_bytes bytes = {0};
    assert_int_equal(jpeg_encode(pixels, height, width, channels, 95, &bytes), EXIT_OK);
    assert_true(bytes.size > 100);
    assert_memory_equal(bytes.data, "\xff\xd8\xff", 3);
    struct jpeg_options options = {.interleaved = true};
    struct jpeg_image image = {0};
    assert_int_equal(jpeg_decode(bytes.data, bytes.size, "round trip", &options, &image), EXIT_OK);
    assert_int_equal(image.height, height);
    assert_int_equal(image.width, width);
    assert_int_equal(image.channels, channels);
    double error = 0;
    size_t count = (size_t)height * width * channels;
    for (size_t index = 0; index < count; index++)
        error += abs((int)image.pixels[index] -
                     (channels == 4 ? 255 - (int)pixels[index] : (int)pixels[index]));
    assert_true(error / (double)count < 2.0);
    jpeg_image_free(&image);
    free(bytes.data);
    free(pixels);
}

static void colour_and_grey_round_trip(void **state)
{
    (void)state;
    assert_round_trip(218, 178, 3);
    assert_round_trip(37, 61, 1);
    assert_round_trip(1, 1, 3);
    assert_round_trip(24, 40, 4);
}

static void encoding_again_replaces_the_bytes(void **state)
{
    (void)state;
    uint8_t *pixels = gradient(16, 16, 3);
    struct jpeg_bytes bytes = {0};
    assert_int_equal(jpeg_encode(pixels, 16, 16, 3, 50, &bytes), EXIT_OK);
    size_t low = bytes.size;
    assert_int_equal(jpeg_encode(pixels, 16, 16, 3, 100, &bytes), EXIT_OK);
    assert_true(bytes.size > low);
    jpeg_bytes_free(&bytes);
    assert_null(bytes.data);
    assert_int_equal(bytes.size, 0);
    free(pixels);
}

static void bad_arguments_refused(void **state)
{
    (void)state;
    uint8_t pixel[5] = {0};
    struct jpeg_bytes bytes = {0};
    assert_int_equal(jpeg_encode(pixel, 1, 1, 5, 90, &bytes), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot encode JPEG: 1x1 pixels of 5 channels at "
                                         "quality 90");
    assert_int_equal(jpeg_encode(pixel, 1, 1, 2, 90, &bytes), EXIT_OTHER);
    assert_int_equal(jpeg_encode(pixel, 1, 1, 3, 0, &bytes), EXIT_OTHER);
    assert_int_equal(jpeg_encode(pixel, 0, 1, 3, 90, &bytes), EXIT_OTHER);
    assert_int_equal(jpeg_encode(pixel, 1, 70000, 3, 90, &bytes), EXIT_OTHER);
    assert_null(bytes.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(colour_and_grey_round_trip),
        cmocka_unit_test(encoding_again_replaces_the_bytes),
        cmocka_unit_test(bad_arguments_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
