/* Photo-like pictures, drawn in one pass per pixel: the blobs are separable Gaussians (a row
   factor times a column factor) and the texture is value noise (random values on a grid,
   interpolated), so a 500 x 375 picture takes a few milliseconds. */
#include "photos.h"

#include "common/base/error.h"

#include <math.h>
#include <stdlib.h>

enum { BLOBS = 5, SHAPES = 4, OCTAVES = 3, MAXIMUM_CHANNELS = 3 };

struct scene {
    double level[MAXIMUM_CHANNELS];
    double slope_x, slope_y;
    double blob_amount[BLOBS][MAXIMUM_CHANNELS];
    float *blob_rows[BLOBS];    /* height entries each */
    float *blob_columns[BLOBS]; /* width entries each */
    uint32_t shape_box[SHAPES][4]; /* top, left, bottom, right */
    double shape_amount[SHAPES][MAXIMUM_CHANNELS];
    uint32_t cell[OCTAVES];
    double octave_amount[OCTAVES];
    float *grid[OCTAVES];       /* (height / cell + 2) x (width / cell + 2) values */
    uint32_t grid_width[OCTAVES];
};

static float *gaussian_profile(struct random_state *random, uint32_t size)
{
    float *profile = malloc((size_t)size * sizeof *profile);
    if (profile == NULL)
        return NULL;
    double centre = random_between(random, 0, size), radius = random_between(random, 0.05, 0.3) * size;
    for (uint32_t index = 0; index < size; index++) {
        double distance = ((double)index - centre) / radius;
        profile[index] = (float)exp(-0.5 * distance * distance);
    }
    return profile;
}

static int draw_blobs(struct scene *scene, struct random_state *random, uint32_t height,
                      uint32_t width)
{
    for (int blob = 0; blob < BLOBS; blob++) {
        scene->blob_rows[blob] = gaussian_profile(random, height);
        scene->blob_columns[blob] = gaussian_profile(random, width);
        if (scene->blob_rows[blob] == NULL || scene->blob_columns[blob] == NULL)
            return EXIT_OTHER;
        for (int channel = 0; channel < MAXIMUM_CHANNELS; channel++)
            scene->blob_amount[blob][channel] = random_between(random, -70, 70);
    }
    return EXIT_OK;
}

static void draw_shapes(struct scene *scene, struct random_state *random, uint32_t height,
                        uint32_t width)
{
    for (int shape = 0; shape < SHAPES; shape++) {
        uint32_t top = (uint32_t)random_below(random, height), left = (uint32_t)random_below(random, width);
        uint32_t tall = 1 + (uint32_t)(random_between(random, 0.05, 0.4) * height);
        uint32_t wide = 1 + (uint32_t)(random_between(random, 0.05, 0.4) * width);
        scene->shape_box[shape][0] = top;
        scene->shape_box[shape][1] = left;
        scene->shape_box[shape][2] = top + tall;
        scene->shape_box[shape][3] = left + wide;
        for (int channel = 0; channel < MAXIMUM_CHANNELS; channel++)
            scene->shape_amount[shape][channel] = random_between(random, -50, 50);
    }
}

static int draw_texture(struct scene *scene, struct random_state *random, uint32_t height,
                        uint32_t width)
{
    static const uint32_t cells[OCTAVES] = {24, 6, 2};
    static const double amounts[OCTAVES] = {22, 10, 6};
    for (int octave = 0; octave < OCTAVES; octave++) {
        uint32_t cell = cells[octave];
        uint32_t rows = height / cell + 2, columns = width / cell + 2;
        scene->cell[octave] = cell;
        scene->grid_width[octave] = columns;
        scene->octave_amount[octave] = amounts[octave] * random_between(random, 0.5, 1.5);
        scene->grid[octave] = malloc((size_t)rows * columns * sizeof *scene->grid[octave]);
        if (scene->grid[octave] == NULL)
            return EXIT_OTHER;
        for (size_t index = 0; index < (size_t)rows * columns; index++)
            scene->grid[octave][index] = (float)random_between(random, -1, 1);
    }
    return EXIT_OK;
}

static double texture_at(const struct scene *scene, uint32_t row, uint32_t column)
{
    double value = 0;
    for (int octave = 0; octave < OCTAVES; octave++) {
        uint32_t cell = scene->cell[octave], columns = scene->grid_width[octave];
        uint32_t top = row / cell, left = column / cell;
        double down = (double)(row % cell) / cell, across = (double)(column % cell) / cell;
        const float *grid = scene->grid[octave] + (size_t)top * columns + left;
        double upper = grid[0] + (grid[1] - grid[0]) * across;
        double lower = grid[columns] + (grid[columns + 1] - grid[columns]) * across;
        value += (upper + (lower - upper) * down) * scene->octave_amount[octave];
    }
    return value;
}

static double value_at(const struct scene *scene, uint32_t row, uint32_t column, int channel,
                       double texture, uint64_t noise)
{
    double value = scene->level[channel] + scene->slope_x * column + scene->slope_y * row + texture;
    for (int blob = 0; blob < BLOBS; blob++)
        value += scene->blob_rows[blob][row] * scene->blob_columns[blob][column] *
                 scene->blob_amount[blob][channel];
    for (int shape = 0; shape < SHAPES; shape++) {
        const uint32_t *box = scene->shape_box[shape];
        if (row >= box[0] && row < box[2] && column >= box[1] && column < box[3])
            value += scene->shape_amount[shape][channel];
    }
    value += (double)(noise & 7) - 3.5;
    return value < 0 ? 0 : value > 255 ? 255 : value;
}

static void paint(const struct scene *scene, struct random_state *random, uint8_t *pixels,
                  uint32_t height, uint32_t width, uint32_t channels)
{
    for (uint32_t row = 0; row < height; row++)
        for (uint32_t column = 0; column < width; column++) {
            double texture = texture_at(scene, row, column);
            uint64_t noise = random_next(random);
            uint8_t *pixel = pixels + ((size_t)row * width + column) * channels;
            for (uint32_t channel = 0; channel < channels; channel++, noise >>= 3)
                pixel[channel] = (uint8_t)value_at(scene, row, column, (int)channel, texture, noise);
        }
}

static void scene_free(struct scene *scene)
{
    for (int blob = 0; blob < BLOBS; blob++) {
        free(scene->blob_rows[blob]);
        free(scene->blob_columns[blob]);
    }
    for (int octave = 0; octave < OCTAVES; octave++)
        free(scene->grid[octave]);
}

int picture_photo(struct random_state *random, uint8_t *pixels, uint32_t height, uint32_t width,
                  uint32_t channels)
{
    struct scene scene = {0};
    double level = random_between(random, 60, 190);
    for (int channel = 0; channel < MAXIMUM_CHANNELS; channel++)
        scene.level[channel] = level + random_between(random, -30, 30);
    scene.slope_x = random_between(random, -60, 60) / width;
    scene.slope_y = random_between(random, -60, 60) / height;
    int result = draw_blobs(&scene, random, height, width);
    draw_shapes(&scene, random, height, width);
    if (result == EXIT_OK)
        result = draw_texture(&scene, random, height, width);
    if (result == EXIT_OK)
        paint(&scene, random, pixels, height, width, channels > MAXIMUM_CHANNELS ? MAXIMUM_CHANNELS : channels);
    scene_free(&scene);
    return result == EXIT_OK ? EXIT_OK : error_set(EXIT_OTHER, "cannot draw a picture: out of memory");
}

int photo_jpeg(struct random_state *random, uint32_t height, uint32_t width, uint32_t channels,
               int quality, struct jpeg_bytes *output)
{
    uint8_t *pixels = malloc((size_t)height * width * channels);
    if (pixels == NULL)
        return error_set(EXIT_OTHER, "cannot draw a picture: out of memory");
    int result = picture_photo(random, pixels, height, width, channels);
    if (result == EXIT_OK)
        result = jpeg_encode(pixels, height, width, channels, quality, output);
    free(pixels);
    return result;
}
