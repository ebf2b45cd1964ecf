/* An RGB picture to draw a plot on: rectangles and text in the built-in font. */
#ifndef FUEL_PLOT_CANVAS_H
#define FUEL_PLOT_CANVAS_H

#include <stddef.h>
#include <stdint.h>

struct plot_color {
    uint8_t red, green, blue;
};

struct plot_canvas {
    uint32_t width, height;
    uint8_t *pixels; /* height rows of width interleaved RGB pixels */
};

/* A WIDTH x HEIGHT canvas, white. EXIT_OTHER when out of memory. */
int plot_canvas_create(struct plot_canvas *canvas, uint32_t width, uint32_t height);

void plot_canvas_free(struct plot_canvas *canvas);

/* Fills the WIDTH x HEIGHT rectangle whose top left pixel is (X, Y), clipped to the canvas. */
void plot_canvas_fill(struct plot_canvas *canvas, int64_t x, int64_t y, int64_t width,
                      int64_t height, struct plot_color color);

/* TEXT's width in pixels at SCALE (each font pixel SCALE x SCALE). */
int64_t plot_text_width(const char *text, int scale);

/* Draws TEXT with its top left at (X, Y), each font pixel SCALE x SCALE, clipped. */
void plot_canvas_text(struct plot_canvas *canvas, int64_t x, int64_t y, int scale,
                      const char *text, struct plot_color color);

#endif
