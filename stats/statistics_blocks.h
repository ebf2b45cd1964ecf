/* The statistics' channel layout and the block steps the fixed-shape and variable-length halves
   of source_statistics share (fixed_blocks.c, source_statistics.c, vlen_statistics.c). */
#ifndef FUEL_STATS_STATISTICS_BLOCKS_H
#define FUEL_STATS_STATISTICS_BLOCKS_H

#include "common/h5py/h5py_examples.h"
#include "source_statistics.h"

/* Where the channels lie in an example: OUTER runs of CHANNELS runs of INNER elements. */
struct channel_layout {
    size_t outer, channels, inner;
    bool labelled; /* an axis is labelled channel */
};

/* The statistics of a variable-length source's SELECTION. */
int vlen_statistics_compute(const struct h5py_file *file, const char *source,
                            const struct h5py_selection *selection,
                            const struct statistics_options *options,
                            const struct stage_listener *listener,
                            struct source_statistics *statistics);

/* Reads block after block of a fixed-shape source's SELECTION (of the file at PATH) and
   summarises them; rows never written (written_rows.h) are read once a run. */
int statistics_blocks_read(struct source_statistics *statistics,
                           const struct h5py_examples *examples, const char *path,
                           const struct h5py_selection *selection, struct channel_layout layout,
                           const struct stage_listener *listener);

/* Adds EXAMPLES examples at DATA, laid out as LAYOUT says, to the channels' summaries. SCRATCH
   holds as many doubles as an example has values, for the float path. */
void statistics_block_summarise(struct source_statistics *statistics, struct channel_layout layout,
                                const unsigned char *data, size_t examples,
                                struct numeric_type type, double *scratch);

/* As statistics_block_summarise, into SUMMARIES and HISTOGRAMS (NULL: none), one a channel. */
void statistics_block_summarise_into(struct value_summary *summaries,
                                     struct value_histogram *histograms,
                                     struct channel_layout layout, const unsigned char *data,
                                     size_t examples, struct numeric_type type, double *scratch);

/* Makes STATISTICS hold at least COUNT histograms of TYPE, begun empty, when its options ask for
   them and can count TYPE. */
int statistics_histograms_reserve(struct source_statistics *statistics, size_t count,
                                  struct numeric_type type);

/* Makes STATISTICS hold at least COUNT channel summaries of TYPE (begun empty), and histograms as
   statistics_histograms_reserve. */
int statistics_channels_reserve(struct source_statistics *statistics, size_t count,
                                struct numeric_type type);

/* Whether NAME is a label source's name (holds "target" or "label"). */
bool statistics_label_name(const char *name);

#endif
