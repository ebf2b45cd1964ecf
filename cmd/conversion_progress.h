/* What fuel-convert and fuel-fetch share around a conversion: the --threads option and the live
   progress line drawn from the converter's stages and counts. */
#ifndef FUEL_CONVERSION_PROGRESS_H
#define FUEL_CONVERSION_PROGRESS_H

#include "common/base/progress.h"
#include "converters/registry.h"
#include "parse_options.h"

#include <stdbool.h>

#define CONVERSION_MAX_THREADS 256

/* The --threads table entry, its value stored into THREADS (a long, 0 until given). */
#define CONVERSION_THREADS_OPTION(threads)                                                        \
    {.long_name = "threads", .kind = OPTION_INTEGER, .value = &(threads), .argument = "N",        \
     .help = "worker threads of the conversion (default: the online CPUs)", .minimum = 1,         \
     .maximum = CONVERSION_MAX_THREADS}

/* THREADS when given (above 0), else the online CPUs (at most CONVERSION_MAX_THREADS). */
unsigned conversion_threads(long threads);

/* Draws a converter's stages and counts on one line of stderr, redrawn in place. */
struct conversion_listener {
    struct progress *progress;
    const struct dataset *dataset;
    struct converter_progress hooks;
    char label[512];
};

/* When stderr is a terminal and not QUIET, points ARGUMENTS' progress at LISTENER, which draws
   the progress of ARGUMENTS' dataset until conversion_listener_end; otherwise leaves ARGUMENTS
   silent. */
void conversion_listen(struct conversion_listener *listener, bool quiet,
                       struct converter_arguments *arguments);

/* Clears the line and frees what conversion_listen made (nothing when it drew nothing). */
void conversion_listener_end(struct conversion_listener *listener,
                             struct converter_arguments *arguments);

#endif
