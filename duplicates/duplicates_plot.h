/* fuel duplicates --plot: each group's first member beside each other member, a pair a row,
   written as a PNG file (published whole).

   Geometry (the tests measure it): rows of two cells of PLOT_CELL x PLOT_CELL pixels, cell C of
   row R at column PLOT_GAP + C * (PLOT_CELL + PLOT_GAP), row PLOT_GAP + R * PLOT_ROW; the image
   is fitted in its cell by nearest neighbour (its sides scaled by the same factor until one
   fills the cell; output pixel (x, y) the source pixel (x * w / fitted w, y * h / fitted h)) and
   centred in it, gray images shown gray. Under each cell, PLOT_LINE_SKIP pixels below it and
   PLOT_LINE apart, black lines of text in the plots' font (common/formats/png/plot_font.h) at
   scale 1, left-aligned with the cell and cut to the characters its width holds: the file's name
   when several files are compared, the split and index ("train 5"), the label and its class name
   ("3 cat"; the label alone when it has no name or its name is its number). The background is
   white, a PLOT_RULE-pixel gray line (128) runs between the two cells and across the middle of
   each gap between rows. At most PLOT_ROWS pairs are shown, in the report's order. */
#ifndef FUEL_DUPLICATES_PLOT_H
#define FUEL_DUPLICATES_PLOT_H

#include "duplicate_search.h"

enum {
    PLOT_CELL = 96, PLOT_GAP = 8, PLOT_RULE = 2, PLOT_ROWS = 64, PLOT_LINE = 10,
    PLOT_LINE_SKIP = 3, PLOT_ROW = PLOT_CELL + PLOT_LINE_SKIP + 3 * PLOT_LINE + PLOT_GAP
};

/* Draws RESULT's pairs into PATH. EXIT_USAGE when the source is not of images, EXIT_CORRUPT_INPUT
   when one cannot be read, EXIT_WRITE when PATH cannot be written. */
int duplicates_plot_write(const struct duplicates_request *request,
                          const struct duplicates_result *result, const char *path);

#endif
