/* Draws the pairs of duplicates_plot.h: each member's image read again from its file (pixels, or
   a stored JPEG or PNG decoded in full), fitted into its cell, its labels in the plots' font
   under it, encoded with libpng. */
#include "duplicates_plot.h"

#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/formats/png/png_encode.h"
#include "common/formats/png/png_read.h"
#include "common/formats/png/plot_canvas.h"
#include "common/formats/png/plot_font.h"
#include "common/h5py/h5py_examples.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "image_hashes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One image, interleaved RGB. */
struct picture {
    uint32_t width, height;
    uint8_t *pixels;
};

/* PIXELS of LAYOUT and SHAPE into PICTURE as interleaved RGB. */
static int picture_from(const struct image_layout *layout, const uint8_t *pixels,
                        const uint64_t *shape, struct picture *picture)
{
    uint64_t channels = 1, height = shape[0], width = shape[1];
    if (layout->channel_axis == 0)
        channels = shape[0], height = shape[1], width = shape[2];
    else if (layout->channel_axis == 2)
        channels = shape[2];
    if (height * width > JPEG_MAX_PIXELS || channels == 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot plot an image of %llu x %llu",
                         (unsigned long long)height, (unsigned long long)width);
    picture->width = (uint32_t)width, picture->height = (uint32_t)height;
    picture->pixels = malloc(height * width * 3 + 1);
    if (picture->pixels == NULL)
        return error_set(EXIT_OTHER, "cannot plot: out of memory");
    size_t plane = (size_t)height * width;
    for (size_t position = 0; position < plane; position++)
        for (int channel = 0; channel < 3; channel++) {
            uint64_t taken = channels >= 3 ? (uint64_t)channel : 0;
            picture->pixels[position * 3 + (size_t)channel] =
                layout->channel_axis == 2 ? pixels[position * channels + taken]
                                          : pixels[taken * plane + position];
        }
    return EXIT_OK;
}

static int encoded_picture(const uint8_t *data, size_t size, const char *name,
                           struct picture *picture)
{
    static const uint8_t png_signature[4] = {0x89, 'P', 'N', 'G'};
    struct image_layout planar = {.channel_axis = 0, .example_rank = 3};
    if (size >= 4 && memcmp(data, png_signature, 4) == 0) {
        struct png_rgb decoded = {0};
        int result = png_rgb_decode(data, size, name, &decoded);
        uint64_t shape[3] = {decoded.channels, decoded.height, decoded.width};
        if (result == EXIT_OK)
            result = picture_from(&planar, decoded.pixels, shape, picture);
        png_rgb_free(&decoded);
        return result;
    }
    struct jpeg_image decoded = {0};
    struct jpeg_options options = {.warnings_as_pil = true};
    int result = jpeg_decode(data, size, name, &options, &decoded);
    uint64_t shape[3] = {decoded.channels, decoded.height, decoded.width};
    if (result == EXIT_OK)
        result = picture_from(&planar, decoded.pixels, shape, picture);
    jpeg_image_free(&decoded);
    return result;
}

/* The image of MEMBER, read from its file. */
static int member_picture(const struct duplicates_request *request, const char *source,
                          const struct example_record *member, struct picture *picture)
{
    const struct h5py_file *file = request->files[member->file];
    const struct h5py_file_source *found = h5py_file_source(file, source);
    struct image_layout layout;
    int result = image_layout_find(file, found, &layout);
    struct h5py_selection selection;
    if (result == EXIT_OK)
        result = h5py_selection_find(&selection, file, file->splits[member->split], source);
    if (result != EXIT_OK)
        return result;
    uint64_t index = h5py_selection_example(&selection, member->number);
    h5py_selection_free(&selection);
    if (!found->variable_length) {
        struct h5py_examples examples;
        if ((result = h5py_examples_open(&examples, file, source)) != EXIT_OK)
            return result;
        uint8_t *pixels = malloc(examples.example_bytes + 1);
        result = pixels == NULL ? error_set(EXIT_OTHER, "cannot plot: out of memory")
                                : h5py_examples_read(&examples, index, 1, pixels);
        if (result == EXIT_OK)
            result = picture_from(&layout, pixels, examples.shape + 1, picture);
        free(pixels);
        h5py_examples_close(&examples);
        return result;
    }
    struct h5py_vlen_examples examples;
    if ((result = h5py_vlen_examples_open(&examples, file, source)) != EXIT_OK)
        return result;
    uint64_t shape[H5PY_VLEN_MAX_RANK] = {0};
    void *data = NULL;
    size_t count = 0;
    result = h5py_vlen_examples_shape(&examples, index, shape);
    if (result == EXIT_OK)
        result = h5py_vlen_examples_read(&examples, index, &data, &count);
    if (result == EXIT_OK)
        result = layout.encoded ? encoded_picture(data, count, file->path, picture)
                                : picture_from(&layout, data, shape, picture);
    free(data);
    h5py_vlen_examples_close(&examples);
    return result;
}

/* PICTURE fitted into the cell whose top left corner is (LEFT, TOP) of CANVAS. */
static void picture_draw(struct plot_canvas *canvas, uint32_t left, uint32_t top,
                         const struct picture *picture)
{
    double fit = (double)PLOT_CELL / picture->width;
    if ((double)PLOT_CELL / picture->height < fit)
        fit = (double)PLOT_CELL / picture->height;
    uint32_t fitted_width = (uint32_t)(picture->width * fit), fitted_height =
                                                                (uint32_t)(picture->height * fit);
    fitted_width = fitted_width > 0 ? fitted_width : 1;
    fitted_height = fitted_height > 0 ? fitted_height : 1;
    left += (PLOT_CELL - fitted_width) / 2;
    top += (PLOT_CELL - fitted_height) / 2;
    for (uint32_t y = 0; y < fitted_height; y++)
        for (uint32_t x = 0; x < fitted_width; x++) {
            uint64_t source_x = (uint64_t)x * picture->width / fitted_width;
            uint64_t source_y = (uint64_t)y * picture->height / fitted_height;
            memcpy(canvas->pixels + ((size_t)(top + y) * canvas->width + left + x) * 3,
                   picture->pixels + (source_y * picture->width + source_x) * 3, 3);
        }
}

static void rules_draw(struct plot_canvas *canvas, size_t rows)
{
    struct plot_color gray = {128, 128, 128};
    plot_canvas_fill(canvas, PLOT_GAP + PLOT_CELL + (PLOT_GAP - PLOT_RULE) / 2, 0, PLOT_RULE,
                     canvas->height, gray);
    for (size_t row = 1; row < rows; row++)
        plot_canvas_fill(canvas, 0, (int64_t)(row * PLOT_ROW) + (PLOT_GAP - PLOT_RULE) / 2,
                         canvas->width, PLOT_RULE, gray);
}

/* Writes TEXT at (LEFT, TOP), cut to what the cell's width holds. */
static void line_draw(struct plot_canvas *canvas, uint32_t left, uint32_t top, const char *text)
{
    char line[PLOT_CELL / PLOT_FONT_ADVANCE + 2];
    snprintf(line, sizeof line, "%.*s", (int)((PLOT_CELL + 1) / PLOT_FONT_ADVANCE), text);
    plot_canvas_text(canvas, left, top, 1, line, (struct plot_color){0, 0, 0});
}

/* MEMBER's lines under its cell: its file (when several are compared), its split and index, its
   label and class name. */
static void labels_draw(struct plot_canvas *canvas, const struct duplicates_request *request,
                        const struct duplicates_result *result, const struct duplicate_group *group,
                        size_t index, uint32_t left, uint32_t top)
{
    const struct example_record *member = &result->digests.records[group->first + index];
    const struct h5py_file *file = request->files[member->file];
    char text[256];
    if (request->file_count > 1) {
        const char *base = strrchr(file->path, '/');
        line_draw(canvas, left, top, base != NULL ? base + 1 : file->path);
        top += PLOT_LINE;
    }
    snprintf(text, sizeof text, "%s %" PRIu32, file->splits[member->split], member->number);
    line_draw(canvas, left, top, text);
    const struct member_label *label =
        result->groups.labels != NULL ? &result->groups.labels[group->labelled + index] : NULL;
    if (label == NULL || !label->known)
        return;
    const char *name = label->value >= 0 ? class_name(&result->names[member->file],
                                                      (size_t)label->value)
                                         : NULL;
    int length = snprintf(text, sizeof text, "%" PRId64, label->value);
    if (name != NULL && strcmp(name, text) != 0)
        snprintf(text + length, sizeof text - (size_t)length, " %s", name);
    line_draw(canvas, left, top + PLOT_LINE, text);
}

/* The pairs in report order: each group's first member with each other member. */
static int pairs_draw(const struct duplicates_request *request,
                      const struct duplicates_result *result, struct plot_canvas *canvas)
{
    size_t row = 0;
    int status = EXIT_OK;
    for (size_t number = 0; status == EXIT_OK && number < result->groups.group_count; number++) {
        const struct duplicate_group *group = &result->groups.groups[number];
        for (size_t member = 1; status == EXIT_OK && member < group->count && row < PLOT_ROWS;
             member++, row++) {
            size_t indices[2] = {0, member};
            for (int cell = 0; status == EXIT_OK && cell < 2; cell++) {
                struct picture picture = {0};
                uint32_t left = PLOT_GAP + (uint32_t)cell * (PLOT_CELL + PLOT_GAP);
                uint32_t top = PLOT_GAP + (uint32_t)row * PLOT_ROW;
                status = member_picture(request, result->source,
                                        &result->digests.records[group->first + indices[cell]],
                                        &picture);
                if (status == EXIT_OK) {
                    picture_draw(canvas, left, top, &picture);
                    labels_draw(canvas, request, result, group, indices[cell], left,
                                top + PLOT_CELL + PLOT_LINE_SKIP);
                }
                free(picture.pixels);
            }
        }
    }
    return status;
}

int duplicates_plot_write(const struct duplicates_request *request,
                          const struct duplicates_result *result, const char *path)
{
    size_t rows = 0;
    for (size_t number = 0; number < result->groups.group_count; number++)
        rows += result->groups.groups[number].count - 1;
    rows = rows < PLOT_ROWS ? rows : PLOT_ROWS;
    struct plot_canvas canvas;
    int status = plot_canvas_create(&canvas, 3 * PLOT_GAP + 2 * PLOT_CELL,
                                    PLOT_GAP + (uint32_t)(rows > 0 ? rows : 1) * PLOT_ROW);
    if (status != EXIT_OK)
        return status;
    rules_draw(&canvas, rows);
    status = pairs_draw(request, result, &canvas);
    struct png_bytes bytes = {0};
    if (status == EXIT_OK)
        status = png_encode_memory(canvas.pixels, canvas.width, canvas.height, 3, &bytes);
    if (status == EXIT_OK)
        status = publish_bytes(path, bytes.data, bytes.size);
    png_bytes_free(&bytes);
    plot_canvas_free(&canvas);
    return status;
}
