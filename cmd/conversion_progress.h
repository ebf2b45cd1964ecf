/* The live progress line of fuel-convert's and fuel-fetch's conversions, drawn from the
   converter's stages and counts. */
#ifndef FUEL_CONVERSION_PROGRESS_H
#define FUEL_CONVERSION_PROGRESS_H

#include "converters/conversion.h"
#include "stage_progress.h"

#include <stdbool.h>
#include <stddef.h>

/* Draws a converter's stages and counts on one line of stderr, redrawn in place, each stage
   labelled with the dataset. */
struct conversion_listener {
    struct stage_progress drawn;
};

/* When stderr is a terminal and not QUIET, points REQUEST's progress at LISTENER, which draws
   the progress of REQUEST's dataset until conversion_listener_end; otherwise leaves REQUEST
   silent. */
void conversion_listen(struct conversion_listener *listener, bool quiet,
                       struct conversion_request *request);

/* Clears the line and frees what conversion_listen made (nothing when it drew nothing). */
void conversion_listener_end(struct conversion_listener *listener,
                             struct conversion_request *request);

#endif
