/* Lays out fuel preview's tiles and draws the montage row by row, boxes included. */
#include "preview_grid.h"

#include "common/h5py/h5py_names.h"

#include "common/base/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The label sources tried in order, and SVHN format 1's box sources. */
static const char *const label_names[] = {"targets", "bbox_labels"};
static const char *const box_names[BOX_SOURCES] = {"bbox_lefts", "bbox_tops", "bbox_widths",
                                                   "bbox_heights"};
static const uint8_t box_color[3] = {255, 0, 0};

static int optional_open(struct example_source *source, const struct h5py_file *file,
                         const char *name, const char *split, bool *opened)
{
    *opened = false;
    /* A split without the source (ILSVRC2012's test split has no targets) shows no labels. */
    if (h5py_file_source(file, name) == NULL ||
        (h5py_file_has_split(file, split) && !h5py_split_holds(file, split, name)))
        return EXIT_OK;
    int result = example_source_open(source, file, name);
    if (result == EXIT_OK)
        result = example_source_select(source, file, split);
    *opened = result == EXIT_OK;
    return result;
}

static int boxes_open(struct preview_grid *grid, const struct h5py_file *file, const char *split)
{
    bool opened[BOX_SOURCES];
    for (int index = 0; index < BOX_SOURCES; index++) {
        int result = optional_open(&grid->boxes[index], file, box_names[index], split,
                                   &opened[index]);
        if (result != EXIT_OK)
            return result;
    }
    grid->has_boxes = opened[0] && opened[1] && opened[2] && opened[3];
    return EXIT_OK;
}

/* "train" when the file has it, else its first split. */
static const char *preview_default_split(const struct h5py_file *file)
{
    for (size_t index = 0; index < file->split_count; index++)
        if (strcmp(file->splits[index], "train") == 0)
            return "train";
    return file->split_count ? file->splits[0] : "";
}

int preview_grid_open(struct preview_grid *grid, const struct h5py_file *file,
                      const struct preview_request *request)
{
    *grid = (struct preview_grid){.zoom = request->zoom ? request->zoom : 1,
                                  .loaded_row = UINT32_MAX};
    const char *split = request->split ? request->split : preview_default_split(file);
    example_source_init(&grid->data);
    example_source_init(&grid->label);
    for (int index = 0; index < BOX_SOURCES; index++)
        example_source_init(&grid->boxes[index]);
    int result = example_source_open(&grid->data, file,
                                     request->source != NULL ? request->source
                                                             : example_source_default(file));
    if (result == EXIT_OK && !grid->data.encoded)
        result = image_axes_find(&grid->data, NULL, &grid->axes);
    if (result == EXIT_OK)
        result = example_source_select(&grid->data, file, split);
    for (size_t index = 0; result == EXIT_OK && !grid->has_labels && index < 2; index++)
        result = optional_open(&grid->label, file, label_names[index], split, &grid->has_labels);
    if (result == EXIT_OK && grid->has_labels && !grid->label.variable &&
        grid->label.example_elements == 1)
        result = class_names_read(file, grid->label.name, &grid->classes);
    if (result == EXIT_OK)
        result = boxes_open(grid, file, split);
    return result;
}

/* Example NUMBER of the split: its pixels into IMAGE, decoded when it is an encoded image. */
static int example_image(struct preview_grid *grid, uint64_t number, struct image *image)
{
    void *data = NULL;
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    int rank;
    int result = example_source_read_one(&grid->data, number, &data, shape, &rank);
    char name[128];
    snprintf(name, sizeof name, "example %llu of %s", (unsigned long long)number,
             grid->data.name);
    if (result == EXIT_OK && grid->data.encoded)
        result = image_from_encoded(data, (size_t)shape[0], name, image);
    else if (result == EXIT_OK)
        result = image_from_example(data, grid->data.type, shape, rank, &grid->axes, image);
    free(data);
    return result;
}

/* The sizes of an encoded example INDEX, decoded. */
static int encoded_measure(struct preview_grid *grid, uint64_t index, uint64_t *height,
                           uint64_t *width, uint64_t *channels)
{
    struct image image = {0};
    int result = example_image(grid, grid->numbers[index], &image);
    *height = image.height;
    *width = image.width;
    *channels = (uint64_t)image.channels;
    image_free(&image);
    return result;
}

/* The image axes' sizes of the grid's example INDEX. */
static int example_measure(struct preview_grid *grid, uint64_t index, uint64_t *height,
                           uint64_t *width, uint64_t *channels)
{
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    const struct example_source *data = &grid->data;
    if (data->encoded)
        return encoded_measure(grid, index, height, width, channels);
    if (data->variable) {
        uint64_t stored = h5py_selection_example(&data->selection, grid->numbers[index]);
        int result = h5py_vlen_examples_shape(&data->vlen, stored, shape);
        if (result != EXIT_OK)
            return result;
    } else {
        memcpy(shape, data->fixed.shape + 1, (size_t)(data->fixed.rank - 1) * sizeof *shape);
    }
    *height = shape[grid->axes.height];
    *width = shape[grid->axes.width];
    *channels = grid->axes.channel >= 0 ? shape[grid->axes.channel] : 1;
    return EXIT_OK;
}

/* Whether every chosen example of an integer source holds only 0 and 1. */
static int binary_detect(struct preview_grid *grid)
{
    grid->binary = !grid->data.encoded &&
                   (grid->data.type.kind == 'u' || grid->data.type.kind == 'i');
    for (uint64_t index = 0; grid->binary && index < grid->count; index++) {
        void *data = NULL;
        uint64_t shape[H5PY_VLEN_MAX_RANK], elements = 1;
        int rank;
        int result = example_source_read_one(&grid->data, grid->numbers[index], &data, shape,
                                             &rank);
        for (int axis = 0; result == EXIT_OK && axis < rank; axis++)
            elements *= shape[axis];
        for (uint64_t element = 0; result == EXIT_OK && element < elements; element++)
            if (element_value(data, element, grid->data.type) > 1 ||
                element_value(data, element, grid->data.type) < 0)
                grid->binary = false;
        free(data);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

int preview_grid_measure(struct preview_grid *grid)
{
    int status = binary_detect(grid);
    if (status != EXIT_OK)
        return status;
    uint64_t tile_height = 1, tile_width = 1, channels = grid->has_boxes ? 3 : 1;
    for (uint64_t index = 0; index < grid->count; index++) {
        uint64_t height, width, depth;
        int result = example_measure(grid, index, &height, &width, &depth);
        if (result != EXIT_OK)
            return result;
        tile_height = height > tile_height ? height : tile_height;
        tile_width = width > tile_width ? width : tile_width;
        channels = depth > channels ? depth : channels;
    }
    uint64_t count = grid->count ? grid->count : 1;
    grid->columns = (uint32_t)ceil(sqrt((double)count));
    grid->rows = (uint32_t)((count + grid->columns - 1) / grid->columns);
    uint64_t width = PREVIEW_GAP + grid->columns * (tile_width * grid->zoom + PREVIEW_GAP);
    uint64_t height = PREVIEW_GAP + grid->rows * (tile_height * grid->zoom + PREVIEW_GAP);
    if (width > 65535 || height > 65535 || width * tile_height * 3 > ((uint64_t)48 << 20))
        return error_set(EXIT_USAGE, "a montage of %llux%llu pixels is too large: show fewer "
                         "examples or zoom less", (unsigned long long)width,
                         (unsigned long long)height);
    grid->tile_height = (uint32_t)tile_height;
    grid->tile_width = (uint32_t)tile_width;
    grid->width = (uint32_t)width;
    grid->height = (uint32_t)height;
    grid->channels = channels == 1 ? 1 : 3;
    grid->images = calloc(grid->columns, sizeof *grid->images);
    return grid->images ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
}

static void pixel_set(struct image *image, uint64_t x, uint64_t y)
{
    if (x >= image->width || y >= image->height)
        return;
    uint8_t *pixel = image->pixels + (y * image->width + x) * (uint64_t)image->channels;
    for (int channel = 0; channel < image->channels; channel++)
        pixel[channel] = image->channels == 1 ? 255 : box_color[channel];
}

/* The outline of each box of the example: left, top, width, height in pixels. */
static int boxes_draw(struct preview_grid *grid, uint64_t number, struct image *image)
{
    void *values[BOX_SOURCES] = {0};
    uint64_t shape[BOX_SOURCES][H5PY_VLEN_MAX_RANK];
    int rank, result = EXIT_OK;
    for (int index = 0; index < BOX_SOURCES && result == EXIT_OK; index++)
        result = example_source_read_one(&grid->boxes[index], number, &values[index],
                                         shape[index], &rank);
    uint64_t boxes = result == EXIT_OK ? shape[0][0] : 0;
    for (int index = 1; index < BOX_SOURCES; index++)
        boxes = shape[index][0] < boxes ? shape[index][0] : boxes;
    for (uint64_t box = 0; box < boxes; box++) {
        double side[BOX_SOURCES];
        for (int index = 0; index < BOX_SOURCES; index++)
            side[index] = fmax(0, element_value(values[index], box, grid->boxes[index].type));
        uint64_t left = (uint64_t)side[0], top = (uint64_t)side[1];
        uint64_t right = left + (uint64_t)fmax(1, side[2]) - 1;
        uint64_t bottom = top + (uint64_t)fmax(1, side[3]) - 1;
        for (uint64_t x = left; x <= right && x < image->width; x++) {
            pixel_set(image, x, top);
            pixel_set(image, x, bottom);
        }
        for (uint64_t y = top; y <= bottom && y < image->height; y++) {
            pixel_set(image, left, y);
            pixel_set(image, right, y);
        }
    }
    for (int index = 0; index < BOX_SOURCES; index++)
        free(values[index]);
    return result;
}

static int row_load(struct preview_grid *grid, uint32_t row)
{
    for (uint32_t column = 0; column < grid->columns; column++) {
        uint64_t index = (uint64_t)row * grid->columns + column;
        grid->images[column].width = grid->images[column].height = 0;
        if (index >= grid->count)
            continue;
        int result = example_image(grid, grid->numbers[index], &grid->images[column]);
        if (result == EXIT_OK && grid->has_boxes)
            result = boxes_draw(grid, grid->numbers[index], &grid->images[column]);
        if (result != EXIT_OK)
            return result;
    }
    grid->loaded_row = row;
    return EXIT_OK;
}

/* Row TILE_Y (zoomed) of the tiles of the loaded grid row. */
static void tiles_fill(const struct preview_grid *grid, uint32_t tile_y, uint8_t *row)
{
    uint32_t tile_width = grid->tile_width * grid->zoom, y = tile_y / grid->zoom;
    for (uint32_t column = 0; column < grid->columns; column++) {
        const struct image *image = &grid->images[column];
        uint8_t *out = row + (size_t)(PREVIEW_GAP + column * (tile_width + PREVIEW_GAP)) *
                                 (size_t)grid->channels;
        for (uint32_t tile_x = 0; tile_x < tile_width; tile_x++, out += grid->channels) {
            uint32_t x = tile_x / grid->zoom;
            if (x >= image->width || y >= image->height) {
                memset(out, 0, (size_t)grid->channels);
                continue;
            }
            const uint8_t *pixel = image->pixels + ((size_t)y * image->width + x) *
                                                       (size_t)image->channels;
            for (int channel = 0; channel < grid->channels; channel++) {
                uint8_t value = pixel[image->channels == 1 ? 0 : channel];
                out[channel] = grid->binary && value ? 255 : value;
            }
        }
    }
}

int preview_grid_row(void *context, uint32_t y, uint8_t *row)
{
    struct preview_grid *grid = context;
    memset(row, PREVIEW_GAP_LEVEL, (size_t)grid->width * (size_t)grid->channels);
    uint32_t pitch = grid->tile_height * grid->zoom + PREVIEW_GAP;
    if (y < PREVIEW_GAP || (y - PREVIEW_GAP) % pitch >= grid->tile_height * grid->zoom)
        return 0;
    uint32_t grid_row = (y - PREVIEW_GAP) / pitch;
    if (grid_row != grid->loaded_row && row_load(grid, grid_row) != EXIT_OK)
        return -1;
    tiles_fill(grid, (y - PREVIEW_GAP) % pitch, row);
    return 0;
}

/* ":NAME" of class NUMBER into TEXT, spaces as _ so that a row's labels stay space-separated;
   nothing when the class is unnamed or named by its number (MNIST's digits). */
static size_t name_append(const struct class_names *classes, double number, const char *shown,
                          char *text, size_t size)
{
    const char *name = number >= 0 && number == floor(number) && number < (double)classes->count
                           ? class_name(classes, (size_t)number) : NULL;
    if (name == NULL || strcmp(name, shown) == 0)
        return 0;
    size_t length = (size_t)snprintf(text, size, ":%s", name);
    for (size_t at = 0; at < length && at < size; at++)
        if (text[at] == ' ')
            text[at] = '_';
    return length;
}

int preview_grid_label(struct preview_grid *grid, uint64_t index, char *text, size_t size)
{
    snprintf(text, size, "-");
    if (!grid->has_labels)
        return EXIT_OK;
    void *values = NULL;
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    int rank;
    int result = example_source_read_one(&grid->label, grid->numbers[index], &values, shape, &rank);
    uint64_t count = 1;
    for (int axis = 0; result == EXIT_OK && axis < rank; axis++)
        count *= shape[axis];
    size_t length = 0;
    for (uint64_t value = 0; result == EXIT_OK && value < count && length < size; value++) {
        char one[64];
        double number = element_value(values, value, grid->label.type);
        element_label_text(number, one, sizeof one);
        length += (size_t)snprintf(text + length, size - length, "%s%s", value ? "," : "", one);
        if (grid->classes.count > 0 && length < size)
            length += name_append(&grid->classes, number, one, text + length, size - length);
    }
    free(values);
    return result;
}

void preview_grid_close(struct preview_grid *grid)
{
    example_source_close(&grid->data);
    example_source_close(&grid->label);
    class_names_free(&grid->classes);
    for (int index = 0; index < BOX_SOURCES; index++)
        example_source_close(&grid->boxes[index]);
    for (uint32_t column = 0; grid->images != NULL && column < grid->columns; column++)
        image_free(&grid->images[column]);
    free(grid->images);
    free(grid->numbers);
}
