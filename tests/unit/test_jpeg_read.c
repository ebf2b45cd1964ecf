/* Unit tests for common/formats/jpeg/jpeg_read.c: pixels identical to PIL's, both layouts, the check's
   verdicts, truncated, corrupt and oversized files refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include "common/base/error.h"
#include "common/formats/jpeg/jpeg_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

struct bytes {
    uint8_t *data;
    size_t size;
};

static struct bytes read_whole(const char *path)
{
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    struct bytes bytes = {0};
    assert_int_equal(fseek(file, 0, SEEK_END), 0);
    bytes.size = (size_t)ftell(file);
    rewind(file);
    bytes.data = malloc(bytes.size + 1);
    assert_non_null(bytes.data);
    assert_int_equal(fread(bytes.data, 1, bytes.size, file), bytes.size);
    fclose(file);
    return bytes;
}

static struct bytes case_file(const char *name, const char *extension)
{
    char file[128], path[512];
    snprintf(file, sizeof file, "%.63s.%.7s", name, extension);
    test_path(path, sizeof path, test_directory, file);
    return read_whole(path);
}

/* PIL writes every case into the group's directory (tests/helpers/jpeg_cases.py). */
static int make_cases(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    char command[512];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/jpeg_cases.py make %s",
             test_directory);
    return system(command) == 0 ? 0 : -1;
}

struct case_line {
    char name[64];
    uint32_t height, width, channels;
};

/* The manifest's cases whose name starts with PREFIX (all with ""); returns how many. */
static size_t read_manifest(const char *prefix, struct case_line *lines, size_t capacity)
{
    char path[512];
    test_path(path, sizeof path, test_directory, "manifest");
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    size_t count = 0;
    struct case_line line;
    while (fscanf(file, "%63s %u %u %u", line.name, &line.height, &line.width,
                  &line.channels) == 4) {
        if (strncmp(line.name, prefix, strlen(prefix)) != 0)
            continue;
        assert_true(count < capacity);
        lines[count++] = line;
    }
    fclose(file);
    return count;
}

static void assert_decodes_as_pil(const struct case_line *line, const struct bytes *jpeg,
                                  bool warnings_as_pil, struct jpeg_image *image)
{
    struct bytes raw = case_file(line->name, "raw");
    size_t size = (size_t)line->height * line->width * line->channels;
    assert_int_equal(raw.size, size);
    struct jpeg_options interleaved = {.interleaved = true, .warnings_as_pil = warnings_as_pil};
    if (jpeg_decode(jpeg->data, jpeg->size, line->name, &interleaved, image) != EXIT_OK)
        fail_msg("%s: %s", line->name, error_message());
    assert_int_equal(image->height, line->height);
    assert_int_equal(image->width, line->width);
    assert_int_equal(image->channels, line->channels);
    assert_memory_equal(image->pixels, raw.data, size);
    uint8_t *planar = malloc(size);
    assert_non_null(planar);
    jpeg_to_channel_major(raw.data, line->height, line->width, line->channels, planar);
    struct jpeg_options channel_major = {.warnings_as_pil = warnings_as_pil};
    assert_int_equal(jpeg_decode(jpeg->data, jpeg->size, line->name, &channel_major, image),
                     EXIT_OK);
    assert_memory_equal(image->pixels, planar, size);
    assert_int_equal(jpeg_check(jpeg->data, jpeg->size, line->name, &channel_major), EXIT_OK);
    free(planar);
    free(raw.data);
}

static void pixels_are_pil_pixels_in_both_layouts(void **state)
{
    (void)state;
    struct case_line lines[32];
    size_t count = read_manifest("", lines, 32);
    assert_true(count >= 15);
    struct jpeg_image image = {0};
    for (size_t index = 0; index < count; index++) {
        if (strncmp(lines[index].name, "damaged", 7) == 0)
            continue;
        struct bytes jpeg = case_file(lines[index].name, "jpg");
        struct jpeg_header header;
        assert_int_equal(jpeg_probe(jpeg.data, jpeg.size, "x.jpg", &header), EXIT_OK);
        assert_int_equal(header.height, lines[index].height);
        assert_int_equal(header.width, lines[index].width);
        assert_int_equal(header.channels, lines[index].channels);
        assert_int_equal(header.progressive, strstr(lines[index].name, "progressive") != NULL);
        assert_decodes_as_pil(&lines[index], &jpeg, false, &image);
        assert_decodes_as_pil(&lines[index], &jpeg, true, &image);
        free(jpeg.data);
    }
    jpeg_image_free(&image);
}

/* PIL decodes these (libjpeg warns, skips junk, makes up what it cannot read); so does the
   decoder when asked to fail only where PIL fails, to the same pixels. */
static void damaged_data_is_refused_unless_as_pil(void **state)
{
    (void)state;
    const char *why[] = {"6 extraneous bytes before marker 0xd9",
                         "3 extraneous bytes before marker 0xdb", "bad Huffman code",
                         "bad Huffman code"};
    struct case_line lines[5];
    assert_int_equal(read_manifest("damaged", lines, 5), 4);
    struct jpeg_image image = {0};
    for (size_t index = 0; index < 4; index++) {
        struct bytes jpeg = case_file(lines[index].name, "jpg");
        assert_int_equal(jpeg_decode(jpeg.data, jpeg.size, "bad.jpg", NULL, &image),
                         EXIT_CORRUPT_INPUT);
        char expected[200];
        snprintf(expected, sizeof expected, "cannot decode JPEG: bad.jpg: Corrupt JPEG data: %s",
                 why[index]);
        assert_string_equal(error_message(), expected);
        assert_int_equal(image.width, 0);
        assert_int_equal(jpeg_check(jpeg.data, jpeg.size, "bad.jpg", NULL), EXIT_CORRUPT_INPUT);
        assert_decodes_as_pil(&lines[index], &jpeg, true, &image);
        free(jpeg.data);
    }
    jpeg_image_free(&image);
}

/* PIL raises on every prefix of a JPEG, the one without its final end marker included. */
static void every_prefix_is_refused(void **state)
{
    (void)state;
    const char *names[] = {"gray_2x3", "rgb420_noise", "rgb444_progressive"};
    struct jpeg_image image = {0};
    for (size_t index = 0; index < 3; index++) {
        struct bytes jpeg = case_file(names[index], "jpg");
        for (size_t size = 0; size < jpeg.size; size++)
            for (int as_pil = 0; as_pil < 2; as_pil++) {
                struct jpeg_options options = {.warnings_as_pil = as_pil};
                const char *expected = size == 0 ? "cannot decode JPEG: cut.jpg: Empty input file"
                                                 : "cannot decode JPEG: cut.jpg: Premature end of "
                                                   "JPEG file";
                assert_int_equal(jpeg_decode(jpeg.data, size, "cut.jpg", &options, &image),
                                 EXIT_CORRUPT_INPUT);
                assert_string_equal(error_message(), expected);
                assert_int_equal(jpeg_check(jpeg.data, size, "cut.jpg", &options),
                                 EXIT_CORRUPT_INPUT);
                assert_string_equal(error_message(), expected);
            }
        free(jpeg.data);
    }
    jpeg_image_free(&image);
}

/* The check's verdict and message on the SIZE bytes at DATA are the decode's, under both
   policies; counts the decode's verdicts in *PASSES and *FAILURES. */
static void assert_check_as_decode(const uint8_t *data, size_t size, struct jpeg_image *image,
                                   int *passes, int *failures)
{
    for (int as_pil = 0; as_pil < 2; as_pil++) {
        struct jpeg_options options = {.warnings_as_pil = as_pil, .max_pixels = 1 << 24};
        int decoded = jpeg_decode(data, size, "x.jpg", &options, image);
        char message[512];
        snprintf(message, sizeof message, "%s", error_message());
        error_clear();
        assert_int_equal(jpeg_check(data, size, "x.jpg", &options), decoded);
        assert_string_equal(error_message(), decoded == EXIT_OK ? "" : message);
        error_clear();
        *failures += decoded != EXIT_OK;
        *passes += decoded == EXIT_OK;
    }
}

/* Decoding at 1/8 scale still reads every Huffman code: any damage that fails a full decode
   fails the check with the same message, and the rest passes both. */
static void check_fails_exactly_where_decode_fails(void **state)
{
    (void)state;
    const char *names[] = {"imagenet", "rgb_progressive", "gray"};
    struct jpeg_image image = {0};
    int failures = 0, passes = 0;
    for (size_t index = 0; index < 3; index++) {
        struct bytes jpeg = case_file(names[index], "jpg");
        for (size_t position = 0; position < jpeg.size; position += 1 + jpeg.size / 400) {
            uint8_t original = jpeg.data[position];
            jpeg.data[position] = (uint8_t)(original ^ (0x11 << (position % 4)));
            assert_check_as_decode(jpeg.data, jpeg.size, &image, &passes, &failures);
            jpeg.data[position] = original;
        }
        free(jpeg.data);
    }
    assert_true(failures > 100 && passes > 100);
    jpeg_image_free(&image);
}

static void not_a_jpeg_is_refused(void **state)
{
    (void)state;
    static const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
    struct jpeg_image image = {0};
    struct jpeg_header header;
    assert_int_equal(jpeg_decode(png, sizeof png, "a.png", NULL, &image), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot decode JPEG: a.png: Not a JPEG file: starts with 0x89 0x50");
    assert_int_equal(jpeg_probe(png, sizeof png, "a.png", &header), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "cannot decode JPEG: a.png: Not a JPEG file: starts with 0x89 0x50");
    assert_null(image.pixels);
}

/* Finds the SOF marker of JPEG and writes HEIGHT and WIDTH into it. */
static void declare_size(struct bytes *jpeg, uint16_t height, uint16_t width)
{
    for (size_t at = 2; at + 9 < jpeg->size; at++)
        if (jpeg->data[at] == 0xff && (jpeg->data[at + 1] == 0xc0 || jpeg->data[at + 1] == 0xc2)) {
            uint8_t *frame = jpeg->data + at + 5;
            frame[0] = (uint8_t)(height >> 8), frame[1] = (uint8_t)height;
            frame[2] = (uint8_t)(width >> 8), frame[3] = (uint8_t)width;
            return;
        }
    fail_msg("no SOF marker");
}

static void too_many_pixels_are_refused_before_decoding(void **state)
{
    (void)state;
    struct jpeg_image image = {0};
    struct bytes jpeg = case_file("rgb_progressive", "jpg");
    struct jpeg_options limited = {.max_pixels = 213 * 161 - 1};
    assert_int_equal(jpeg_decode(jpeg.data, jpeg.size, "p.jpg", &limited, &image),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "cannot decode JPEG: p.jpg: declares 213x161 pixels, "
                                         "more than the 34292 allowed");
    assert_null(image.pixels);
    limited.max_pixels++;
    assert_int_equal(jpeg_decode(jpeg.data, jpeg.size, "p.jpg", &limited, &image), EXIT_OK);
    declare_size(&jpeg, 60000, 65000);
    struct jpeg_header header;
    assert_int_equal(jpeg_probe(jpeg.data, jpeg.size, "p.jpg", &header), EXIT_OK);
    assert_int_equal(header.height, 60000);
    assert_int_equal(header.width, 65000);
    const char *expected = "cannot decode JPEG: p.jpg: declares 65000x60000 pixels, more than "
                           "the 178956970 allowed";
    assert_int_equal(jpeg_decode(jpeg.data, jpeg.size, "p.jpg", NULL, &image), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    assert_int_equal(jpeg_check(jpeg.data, jpeg.size, "p.jpg", NULL), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    free(jpeg.data);
    jpeg_image_free(&image);
}

/* Encodes HEIGHT x WIDTH x COMPONENTS samples given in INPUT_SPACE, stored as STORED_SPACE. */
static struct bytes compress(uint32_t height, uint32_t width, int components,
                             J_COLOR_SPACE input_space, J_COLOR_SPACE stored_space,
                             const uint8_t *samples, unsigned restart_interval)
{
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr errors;
    info.err = jpeg_std_error(&errors);
    jpeg_create_compress(&info);
    unsigned char *data = NULL;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &data, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = components;
    info.in_color_space = input_space;
    jpeg_set_defaults(&info);
    jpeg_set_colorspace(&info, stored_space);
    jpeg_set_quality(&info, 85, TRUE);
    info.restart_interval = restart_interval;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)samples + (size_t)info.next_scanline * width * components;
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return (struct bytes){.data = data, .size = size};
}

/* Writes JPEG to the group's directory, has PIL decode it; returns its pixels (NULL if PIL
   refused the file) and their shape. */
static uint8_t *pil_pixels(const struct bytes *jpeg, struct case_line *shape)
{
    char path[512], output[512], command[1200];
    test_path(path, sizeof path, test_directory, "written.jpg");
    test_path(output, sizeof output, test_directory, "written.raw");
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(jpeg->data, 1, jpeg->size, file), jpeg->size);
    fclose(file);
    snprintf(command, sizeof command,
             "/usr/bin/python3 tests/helpers/jpeg_cases.py decode %s %s", path, output);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    char said[256] = "";
    size_t length = fread(said, 1, sizeof said - 1, pipe);
    said[length] = '\0';
    if (pclose(pipe) != 0) {
        assert_true(strncmp(said, "refused: ", 9) == 0);
        return NULL;
    }
    assert_int_equal(sscanf(said, "%u %u %u", &shape->height, &shape->width, &shape->channels), 3);
    return read_whole(output).data;
}

static void assert_same_as_pil(const struct bytes *jpeg, uint32_t channels)
{
    struct case_line shape;
    uint8_t *expected = pil_pixels(jpeg, &shape);
    assert_non_null(expected);
    assert_int_equal(shape.channels, channels);
    struct jpeg_image image = {0};
    struct jpeg_options interleaved = {.interleaved = true};
    assert_int_equal(jpeg_decode(jpeg->data, jpeg->size, "w.jpg", &interleaved, &image), EXIT_OK);
    assert_int_equal(image.height, shape.height);
    assert_int_equal(image.width, shape.width);
    assert_memory_equal(image.pixels, expected, (size_t)shape.height * shape.width * channels);
    free(expected);
    jpeg_image_free(&image);
}

/* Color spaces PIL cannot write: YCCK (Adobe transform 2) and RGB stored as RGB (transform 0). */
static void ycck_and_stored_rgb_are_decoded_as_pil(void **state)
{
    (void)state;
    uint32_t height = 29, width = 43;
    uint8_t *samples = malloc((size_t)height * width * 4);
    assert_non_null(samples);
    for (size_t index = 0; index < (size_t)height * width * 4; index++)
        samples[index] = (uint8_t)((index * 2654435761u) >> 13);
    struct bytes ycck = compress(height, width, 4, JCS_CMYK, JCS_YCCK, samples, 0);
    assert_same_as_pil(&ycck, 4);
    struct bytes rgb = compress(height, width, 3, JCS_RGB, JCS_RGB, samples, 0);
    assert_same_as_pil(&rgb, 3);
    free(ycck.data);
    free(rgb.data);
    free(samples);
}

/* Where the entropy-coded data of JPEG begins: after the first scan header. */
static size_t scan_data(const struct bytes *jpeg)
{
    for (size_t at = 2; at + 4 <= jpeg->size; at++)
        if (jpeg->data[at] == 0xFF && jpeg->data[at + 1] == 0xDA)
            return at + 2 + ((size_t)jpeg->data[at + 2] << 8 | jpeg->data[at + 3]);
    fail_msg("no scan header");
    return 0;
}

/* A single scan passes the check undecoded when only stuffed bytes, fill bytes and restart
   markers stand before its end marker: any marker written into the entropy-coded data, and the
   data cut short before an end marker, get the decode's verdict and message. */
static void markers_in_the_scan_get_the_decode_verdict(void **state)
{
    (void)state;
    uint8_t samples[48 * 64 * 3];
    for (size_t index = 0; index < sizeof samples; index++)
        samples[index] = (uint8_t)(index % 192 + (index * 2654435761u >> 27));
    struct bytes jpegs[3] = {case_file("rgb420_celeba", "jpg"), case_file("gray", "jpg"),
                             compress(48, 64, 3, JCS_RGB, JCS_YCbCr, samples, 1)};
    static const uint8_t markers[] = {0x00, 0xD0, 0xD5, 0xD9, 0xC4, 0xDA, 0xFE, 0x01, 0xFF};
    struct jpeg_image image = {0};
    int passes = 0, failures = 0;
    for (size_t file = 0; file < 3; file++) {
        const struct bytes *jpeg = &jpegs[file];
        uint8_t *copy = malloc(jpeg->size + 2);
        assert_non_null(copy);
        size_t start = scan_data(jpeg), step = 1 + (jpeg->size - start) / 40;
        for (size_t position = start; position + 2 < jpeg->size; position += step) {
            for (size_t marker = 0; marker < sizeof markers; marker++) {
                memcpy(copy, jpeg->data, jpeg->size);
                copy[position] = 0xFF;
                copy[position + 1] = markers[marker];
                assert_check_as_decode(copy, jpeg->size, &image, &passes, &failures);
            }
            memcpy(copy + position, "\xFF\xD9", 2);
            assert_check_as_decode(copy, position + 2, &image, &passes, &failures);
        }
        free(copy);
        free(jpeg->data);
    }
    assert_true(passes > 400 && failures > 100);
    jpeg_image_free(&image);
}

static void two_components_are_refused_as_pil_refuses_them(void **state)
{
    (void)state;
    uint8_t samples[8 * 8 * 2] = {0};
    struct bytes jpeg = compress(8, 8, 2, JCS_UNKNOWN, JCS_UNKNOWN, samples, 0);
    struct case_line shape;
    assert_null(pil_pixels(&jpeg, &shape));
    struct jpeg_image image = {0};
    struct jpeg_header header;
    const char *expected = "cannot decode JPEG: two.jpg: has 2 components (PIL decodes 1, 3 or 4)";
    assert_int_equal(jpeg_decode(jpeg.data, jpeg.size, "two.jpg", NULL, &image),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    assert_int_equal(jpeg_probe(jpeg.data, jpeg.size, "two.jpg", &header), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    free(jpeg.data);
}

/* JPEG with its last scan repeated until it holds SCANS scans (libjpeg only warns of a repeated
   progression, which PIL ignores: a hostile file decodes, one pass over the image a scan). */
static struct bytes with_scans(const struct bytes *jpeg, size_t scans)
{
    size_t last = 0, count = 0;
    for (size_t at = 2; at + 1 < jpeg->size; at++)
        if (jpeg->data[at] == 0xff && jpeg->data[at + 1] == 0xda)
            last = at, count++;
    assert_true(count > 1 && count <= scans);
    size_t scan = jpeg->size - 2 - last, size = jpeg->size + (scans - count) * scan;
    struct bytes repeated = {malloc(size), size};
    assert_non_null(repeated.data);
    memcpy(repeated.data, jpeg->data, jpeg->size - 2);
    for (size_t copy = 0; copy < scans - count; copy++)
        memcpy(repeated.data + jpeg->size - 2 + copy * scan, jpeg->data + last, scan);
    memcpy(repeated.data + size - 2, jpeg->data + jpeg->size - 2, 2);
    return repeated;
}

static void more_scans_than_the_limit_are_refused(void **state)
{
    (void)state;
    struct bytes jpeg = case_file("rgb_progressive", "jpg");
    struct jpeg_options as_pil = {.warnings_as_pil = true};
    struct jpeg_image image = {0};
    struct bytes most = with_scans(&jpeg, JPEG_MAX_SCANS);
    assert_int_equal(jpeg_decode(most.data, most.size, "most.jpg", &as_pil, &image), EXIT_OK);
    assert_int_equal(jpeg_check(most.data, most.size, "most.jpg", &as_pil), EXIT_OK);
    struct bytes hostile = with_scans(&jpeg, JPEG_MAX_SCANS + 1);
    const char *expected = "cannot decode JPEG: scans.jpg: has more than 500 scans";
    assert_int_equal(jpeg_decode(hostile.data, hostile.size, "scans.jpg", &as_pil, &image),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    assert_int_equal(image.width, 0);
    assert_int_equal(jpeg_check(hostile.data, hostile.size, "scans.jpg", &as_pil),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), expected);
    struct jpeg_header header;
    assert_int_equal(jpeg_probe(jpeg.data, jpeg.size, "p.jpg", &header), EXIT_OK);
    /* 4:2:0 subsampled: 27 x 21 luma blocks rounded up to 2 x 2, and 14 x 11 for each chroma. */
    assert_int_equal(header.coefficient_bytes, (28 * 22 + 2 * 14 * 11) * 64 * 2);
    free(jpeg.data);
    free(most.data);
    free(hostile.data);
    jpeg_image_free(&image);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pixels_are_pil_pixels_in_both_layouts),
        cmocka_unit_test(damaged_data_is_refused_unless_as_pil),
        cmocka_unit_test(every_prefix_is_refused),
        cmocka_unit_test(check_fails_exactly_where_decode_fails),
        cmocka_unit_test(not_a_jpeg_is_refused),
        cmocka_unit_test(too_many_pixels_are_refused_before_decoding),
        cmocka_unit_test(ycck_and_stored_rgb_are_decoded_as_pil),
        cmocka_unit_test(two_components_are_refused_as_pil_refuses_them),
        cmocka_unit_test(markers_in_the_scan_get_the_decode_verdict),
        cmocka_unit_test(more_scans_than_the_limit_are_refused),
    };
    return cmocka_run_group_tests(tests, make_cases, test_directory_teardown);
}
