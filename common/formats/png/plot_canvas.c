/* An RGB picture to draw a plot on: rectangles and text in the built-in font. */
#include "plot_canvas.h"

#include "common/base/error.h"
#include "plot_font.h"

#include <stdlib.h>
#include <string.h>

int plot_canvas_create(struct plot_canvas *canvas, uint32_t width, uint32_t height)
{
    canvas->width = width;
    canvas->height = height;
    canvas->pixels = malloc((size_t)width * height * 3 + 1);
    if (canvas->pixels == NULL)
        return error_set(EXIT_OTHER, "cannot plot: out of memory");
    memset(canvas->pixels, 255, (size_t)width * height * 3);
    return EXIT_OK;
}

void plot_canvas_free(struct plot_canvas *canvas)
{
    free(canvas->pixels);
    canvas->pixels = NULL;
}

void plot_canvas_fill(struct plot_canvas *canvas, int64_t x, int64_t y, int64_t width,
                      int64_t height, struct plot_color color)
{
    int64_t left = x < 0 ? 0 : x, top = y < 0 ? 0 : y;
    int64_t right = x + width > canvas->width ? canvas->width : x + width;
    int64_t bottom = y + height > canvas->height ? canvas->height : y + height;
    for (int64_t row = top; row < bottom; row++)
        for (int64_t column = left; column < right; column++) {
            uint8_t *pixel = canvas->pixels + ((size_t)row * canvas->width + (size_t)column) * 3;
            pixel[0] = color.red;
            pixel[1] = color.green;
            pixel[2] = color.blue;
        }
}

int64_t plot_text_width(const char *text, int scale)
{
    size_t length = strlen(text);
    return length == 0 ? 0 : ((int64_t)length * PLOT_FONT_ADVANCE - 1) * scale;
}

void plot_canvas_text(struct plot_canvas *canvas, int64_t x, int64_t y, int scale,
                      const char *text, struct plot_color color)
{
    for (size_t index = 0; text[index] != '\0'; index++) {
        const uint8_t *glyph = plot_font_glyph(text[index]);
        int64_t left = x + (int64_t)index * PLOT_FONT_ADVANCE * scale;
        for (int row = 0; row < PLOT_FONT_HEIGHT; row++)
            for (int column = 0; column < PLOT_FONT_WIDTH; column++)
                if (glyph[row] & (0x10 >> column))
                    plot_canvas_fill(canvas, left + column * scale, y + row * scale, scale,
                                     scale, color);
    }
}
