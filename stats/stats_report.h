/* fuel stats' engine: the statistics of a file's splits and sources as one JSON document, and
   the values torchvision.transforms.Normalize takes for one split's image source. */
#ifndef FUEL_STATS_REPORT_H
#define FUEL_STATS_REPORT_H

#include "common/base/stage_listener.h"
#include "common/h5py/h5py_reader.h"
#include "source_statistics.h"

#include <jansson.h>
#include <stddef.h>

struct stats_request {
    const char *split;           /* NULL: every split */
    const char *const *sources;  /* NULL: every source */
    size_t source_count;
    struct statistics_options options; /* --decode and its threads */
    bool plot;                   /* count the plotted split's values in bins */
    const struct stage_listener *listener; /* NULL allowed */
};

/* The report on FILE as REQUEST asks, into *REPORT (the caller decrefs it):
   {"file", "splits": [{"split", "sources": [{"source", "dtype", "examples", "values",
   "channels", "classes", "lengths", "bytes", ...}]}], "normalize"}; with PLOT, "plotted_split"
   and each of its numeric sources' "histograms" (one per channel, or one of all values:
   {"low", "high", "ranged", "counts"}). EXIT_USAGE when a named
   split or source is not in the file; EXIT_CORRUPT_INPUT when a source cannot be read. */
int stats_report(const struct h5py_file *file, const struct stats_request *request,
                 json_t **report);

#endif
