/* The montage of fuel preview: tiles of equal size in rows, bounding boxes drawn where the file
   has them (SVHN format 1), produced one output row at a time. */
#ifndef FUEL_PREVIEW_GRID_H
#define FUEL_PREVIEW_GRID_H

#include "common/h5py/class_names.h"
#include "example_source.h"
#include "image.h"
#include "preview_montage.h"

#include <stdbool.h>
#include <stdint.h>

enum { BOX_SOURCES = 4 };

struct preview_grid {
    struct example_source data;
    struct image_axes axes;
    struct example_source label;
    bool has_labels;
    struct class_names classes;       /* the label source's names, when one value per example */
    struct example_source boxes[BOX_SOURCES]; /* lefts, tops, widths, heights */
    bool has_boxes;
    uint64_t *numbers; /* the chosen examples of the split, in grid order */
    uint64_t count;
    uint32_t columns, rows;
    uint32_t tile_width, tile_height; /* the largest example, before zoom */
    unsigned zoom;
    int channels;                     /* of the montage: 1, or 3 for color or boxes */
    bool binary;                      /* integers all 0 or 1: drawn black and white */
    uint32_t width, height;           /* of the montage */
    struct image *images;             /* the tiles of the grid row in memory */
    uint32_t loaded_row;              /* UINT32_MAX: none */
};

/* Opens the sources REQUEST names (the data, labels and boxes when the file has them) and
   selects its split. EXIT_USAGE when the data source is not an image. */
int preview_grid_open(struct preview_grid *grid, const struct h5py_file *file,
                      const struct preview_request *request);

/* Measures the chosen examples (numbers, count set) and lays out the grid. */
int preview_grid_measure(struct preview_grid *grid);

/* png_row_source: output row Y of the montage. */
int preview_grid_row(void *context, uint32_t y, uint8_t *row);

/* The label text of the grid's example INDEX ("7", "3:cat" where the file names its classes, a
   name's spaces shown as _; several values comma-separated; "-" when the file has no labels). */
int preview_grid_label(struct preview_grid *grid, uint64_t index, char *text, size_t size);

void preview_grid_close(struct preview_grid *grid);

#endif
