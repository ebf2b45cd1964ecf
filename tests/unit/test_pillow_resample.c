/* Unit tests for converters/pillow_resample.c: every pixel as PIL resizes it with LANCZOS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include "common/base/error.h"
#include "converters/pillow_resample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PIL resizes every case into the group's directory (tests/helpers/resize_cases.py). */
static int make_cases(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    char command[512];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/resize_cases.py %s",
             test_directory);
    return system(command) == 0 ? 0 : -1;
}

static uint8_t *read_case(const char *name, const char *extension, size_t size)
{
    char file[128], path[512];
    snprintf(file, sizeof file, "%.63s.%.7s", name, extension);
    test_path(path, sizeof path, test_directory, file);
    FILE *stream = fopen(path, "rb");
    assert_non_null(stream);
    uint8_t *bytes = malloc(size + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, size + 1, stream), size);
    fclose(stream);
    return bytes;
}

struct case_line {
    char name[64];
    uint32_t width, height, channels, resized_width, resized_height, top, bottom;
};

static size_t read_manifest(struct case_line *lines, size_t capacity)
{
    char path[512];
    test_path(path, sizeof path, test_directory, "manifest");
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    size_t count = 0;
    struct case_line line;
    while (fscanf(file, "%63s %u %u %u %u %u %u %u", line.name, &line.width, &line.height,
                  &line.channels, &line.resized_width, &line.resized_height, &line.top,
                  &line.bottom) == 8) {
        assert_true(count < capacity);
        lines[count++] = line;
    }
    fclose(file);
    return count;
}

static bool same_sizes(const struct pillow_resample *plan, const struct case_line *line)
{
    return plan->channels == line->channels && plan->horizontal.input_size == line->width &&
           plan->vertical.input_size == line->height &&
           plan->horizontal.output_size == line->resized_width &&
           plan->vertical.output_size == line->resized_height;
}

/* Resizes LINE's image with PLAN and compares the rows PIL kept, byte for byte. */
static void assert_resized_as_pil(const struct pillow_resample *plan, const struct case_line *line)
{
    size_t input_size = (size_t)line->width * line->height * line->channels;
    size_t row = (size_t)line->resized_width * line->channels;
    uint8_t *input = read_case(line->name, "in", input_size);
    uint8_t *expected = read_case(line->name, "out", row * (line->bottom - line->top));
    uint8_t *scratch = malloc(pillow_resample_scratch_size(plan) + 1);
    uint8_t *output = malloc(row * line->resized_height);
    assert_true(scratch != NULL && output != NULL);
    pillow_resample_run(plan, input, scratch, output);
    for (uint32_t y = line->top; y < line->bottom; y++)
        if (memcmp(output + y * row, expected + (y - line->top) * row, row) != 0)
            fail_msg("%s: row %u differs from PIL's", line->name, y);
    free(input);
    free(expected);
    free(scratch);
    free(output);
}

/* One plan per size, reused while consecutive cases share it (the 53 CelebA-sized RGB ones). */
static void every_pixel_is_pil_pixel(void **state)
{
    (void)state;
    struct case_line lines[128];
    size_t count = read_manifest(lines, 128);
    assert_int_equal(count, 65);
    struct pillow_resample plan = {0};
    size_t plans = 0;
    for (size_t index = 0; index < count; index++) {
        if (plans == 0 || !same_sizes(&plan, &lines[index])) {
            pillow_resample_free(&plan);
            assert_int_equal(pillow_resample_prepare(&plan, lines[index].width,
                                                     lines[index].height,
                                                     lines[index].resized_width,
                                                     lines[index].resized_height,
                                                     lines[index].channels),
                             EXIT_OK);
            plans++;
        }
        assert_resized_as_pil(&plan, &lines[index]);
    }
    assert_int_equal(plans, 13);
    pillow_resample_free(&plan);
}

/* The plain loops, as on a CPU without AVX2: the same bytes. */
static void every_pixel_is_pil_pixel_without_avx2(void **state)
{
    pillow_resample_use_avx2(false);
    every_pixel_is_pil_pixel(state);
    pillow_resample_use_avx2(true);
}

/* Fuel's crop of CelebA 64 (rows 7 to 70 of 78) alone: the same bytes as those rows of the whole
   resize, with AVX2 and without. */
static void rows_alone_are_those_rows(void **state)
{
    (void)state;
    struct pillow_resample plan;
    assert_int_equal(pillow_resample_prepare(&plan, 178, 218, 64, 78, 3), EXIT_OK);
    size_t input_size = 178 * 218 * 3, row = 64 * 3;
    uint8_t *input = malloc(input_size), *whole = malloc(78 * row), *rows = malloc(64 * row);
    uint8_t *scratch = malloc(pillow_resample_scratch_size(&plan));
    assert_true(input != NULL && whole != NULL && rows != NULL && scratch != NULL);
    unsigned state_value = 7;
    for (size_t index = 0; index < input_size; index++) {
        state_value = state_value * 1103515245u + 12345u;
        input[index] = (uint8_t)(index / 600 * 3 + (state_value >> 28));
    }
    for (int pass = 0; pass < 2; pass++) {
        pillow_resample_use_avx2(pass == 0);
        pillow_resample_run(&plan, input, scratch, whole);
        pillow_resample_run_rows(&plan, input, scratch, 7, 64, rows);
        assert_memory_equal(rows, whole + 7 * row, 64 * row);
    }
    pillow_resample_use_avx2(true);
    free(input);
    free(whole);
    free(rows);
    free(scratch);
    pillow_resample_free(&plan);
}

/* CelebA's 178 x 218 -> 64 x 78 reads every input row, over 19 taps across and 19 down. */
static void celeba_plan_reads_every_row(void **state)
{
    (void)state;
    struct pillow_resample plan;
    assert_int_equal(pillow_resample_prepare(&plan, 178, 218, 64, 78, 3), EXIT_OK);
    assert_int_equal(plan.first_row, 0);
    assert_int_equal(plan.rows, 218);
    assert_int_equal(plan.horizontal.taps, 19);
    assert_int_equal(plan.vertical.taps, 19);
    /* The resized rows, then (for the AVX2 pass) the input rows and the resized ones transposed,
       each transposed input column 8 bytes longer. */
    assert_int_equal(pillow_resample_scratch_size(&plan), 218 * 3 * (64 + 178 + 64) + 178 * 8);
    pillow_resample_free(&plan);
    assert_int_equal(pillow_resample_prepare(&plan, 500, 375, 500, 100, 1), EXIT_OK);
    assert_false(plan.resize_horizontally);
    assert_true(plan.resize_vertically);
    assert_int_equal(pillow_resample_scratch_size(&plan), 0);
    pillow_resample_free(&plan);
}

static void bad_sizes_are_refused(void **state)
{
    (void)state;
    struct pillow_resample plan;
    assert_int_equal(pillow_resample_prepare(&plan, 178, 218, 0, 78, 3), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot resize: 178x218 to 0x78 pixels of 3 channels: "
                                         "sizes must be 1 to 16777216, channels 1 to 4");
    assert_int_equal(pillow_resample_prepare(&plan, 178, 218, 64, 78, 5), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot resize: 178x218 to 64x78 pixels of 5 channels: "
                                         "sizes must be 1 to 16777216, channels 1 to 4");
    assert_null(plan.horizontal.weights);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_pixel_is_pil_pixel),
        cmocka_unit_test(every_pixel_is_pil_pixel_without_avx2),
        cmocka_unit_test(rows_alone_are_those_rows),
        cmocka_unit_test(celeba_plan_reads_every_row),
        cmocka_unit_test(bad_sizes_are_refused),
    };
    return cmocka_run_group_tests(tests, make_cases, test_directory_teardown);
}
