/* fuel stats --plot: the plotted split's class histograms and each channel's value histogram,
   one panel under another, drawn from the report and written as a PNG file.

   Geometry (the tests measure bars by it): panel K's top is PLOT_MARGIN + K * PLOT_PANEL_HEIGHT;
   its bars stand on row top + PLOT_TITLE_HEIGHT + PLOT_BARS_HEIGHT (the x axis), bar B from
   column PLOT_LEFT + B * width, width 512 / bars (at least 1; one column of space between bars
   of 3 columns or more), PLOT_BARS_HEIGHT * count / largest count rows tall, rounded half up.
   Bars are coloured, text and axes black, the rest white. */
#ifndef FUEL_STATS_PLOT_H
#define FUEL_STATS_PLOT_H

#include <jansson.h>

enum {
    PLOT_MARGIN = 12,
    PLOT_LEFT = 110,
    PLOT_TITLE_HEIGHT = 28,
    PLOT_BARS_HEIGHT = 160,
    PLOT_PANEL_HEIGHT = 244,
    PLOT_BARS_WIDTH = 512,
    PLOT_MAX_BARS = 4096,  /* more classes are drawn in groups of consecutive ones */
    PLOT_MAX_PANELS = 24,
};

/* Draws REPORT's plotted split (stats_report with plot) into the PNG file PATH, published whole
   (staged, then renamed). EXIT_USAGE when the split has nothing to plot; EXIT_WRITE when PATH
   cannot be written. */
int stats_plot_write(const json_t *report, const char *path);

#endif
