/* A 5 x 7 bitmap font of printable ASCII for the plots (fuel stats and fuel duplicates --plot). */
#ifndef FUEL_PLOT_FONT_H
#define FUEL_PLOT_FONT_H

#include <stdint.h>

enum { PLOT_FONT_WIDTH = 5, PLOT_FONT_HEIGHT = 7, PLOT_FONT_ADVANCE = 6 };

/* The rows of CHARACTER's glyph (bit 4 the leftmost pixel); '?' for what is not printable
   ASCII. */
const uint8_t *plot_font_glyph(char character);

#endif
