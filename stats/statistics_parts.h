/* What the fixed-shape and the variable-length halves of source_statistics share. */
#ifndef FUEL_STATS_STATISTICS_PARTS_H
#define FUEL_STATS_STATISTICS_PARTS_H

#include "common/h5py/h5py_examples.h"
#include "source_statistics.h"

/* The statistics of a variable-length source's SELECTION. */
int vlen_statistics_compute(const struct h5py_file *file, const char *source,
                            const struct h5py_selection *selection,
                            const struct stage_listener *listener,
                            struct source_statistics *statistics);

/* Whether NAME is a label source's name (holds "target" or "label"). */
bool statistics_label_name(const char *name);

#endif
