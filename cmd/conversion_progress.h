/* The live progress line of fuel-convert's and fuel-fetch's conversions, drawn from the
   converter's stages and counts. */
#ifndef FUEL_CONVERSION_PROGRESS_H
#define FUEL_CONVERSION_PROGRESS_H

#include "common/base/progress.h"
#include "converters/conversion.h"

#include <stdbool.h>
#include <stddef.h>

/* Draws a converter's stages and counts on one line of stderr, redrawn in place. */
struct conversion_listener {
    struct progress *progress;
    const struct dataset *dataset;
    struct stage_listener hooks;
    char label[512];
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
