/* The statistics of one split of one source: its examples read in blocks of bounded size, the
   values summarised per channel (where an axis is labelled `channel`) and as a whole, the classes
   of a label source counted, and, for a variable-length source, each axis' lengths and the bytes. */
#ifndef FUEL_STATS_SOURCE_STATISTICS_H
#define FUEL_STATS_SOURCE_STATISTICS_H

#include "common/base/stage_listener.h"
#include "common/h5py/h5py_reader.h"
#include "value_histogram.h"
#include "value_summary.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Label values counted by class: 0 up to this (exclusive); others are counted as unclassed. */
#define STATISTICS_MAX_CLASSES 65536
/* Attributes of a multi-label source (CelebA's 40) counted at most. */
#define STATISTICS_MAX_ATTRIBUTES 4096
/* Channels summarised apart at most (a variable-length example of more is refused). */
#define STATISTICS_MAX_CHANNELS 1024

struct source_statistics;

struct statistics_options {
    bool decode;      /* stored JPEG and PNG files: their pixels, decoded, as RGB */
    unsigned threads; /* threads summarising blocks and decoding (0: the online CPUs) */
    bool histograms;  /* count the values in bins (8-bit types and bools only, unless RANGES) */
    const struct source_statistics *ranges; /* a first pass: bins between its minimum and maximum */
};

struct axis_lengths {
    char name[32];
    uint64_t minimum, maximum;
    double median;     /* numpy's median: the mean of the two middle lengths when even */
};

struct source_statistics {
    char dtype[16];
    uint64_t examples;
    bool numeric;                 /* values summarised (not for stored JPEG bytes) */
    struct value_summary overall;
    size_t channel_count;         /* 0: no axis labelled channel */
    struct value_summary *channels;
    size_t channel_capacity;      /* summaries allocated at channels */
    struct value_histogram *histograms; /* one per channel, or one of all values; NULL: none */
    size_t histogram_count;
    const struct statistics_options *options;
    bool is_label;                /* one integral value per example, named *target* or *label* */
    uint64_t *class_counts;       /* class_limit entries */
    size_t class_limit;           /* one past the largest class seen */
    uint64_t unclassed;           /* label values that are no class number */
    uint64_t *attribute_counts;   /* multi-label (a vector of integers an example, named *target*
                                     or *label*): the examples whose attribute i is not 0 */
    size_t attribute_count;
    bool variable_length;
    bool jpeg;                    /* stored JPEG bytes: sizes only, unless decoded */
    bool decoded;                 /* values and channels are the decoded files' RGB pixels */
    size_t axis_count;
    struct axis_lengths axes[8];
    uint64_t bytes;               /* variable-length: the elements' bytes */
};

/* Computes the statistics of SOURCE in SPLIT of FILE as OPTIONS ask into STATISTICS (which the
   caller frees with source_statistics_free, whatever the result). EXIT_USAGE when the split or
   pair is not in the file; EXIT_CORRUPT_INPUT when it cannot be read or a file to decode does not
   decode. LISTENER (NULL allowed) hears a stage per source, its examples done. */
int source_statistics_compute(const struct h5py_file *file, const char *split,
                              const char *source, const struct statistics_options *options,
                              const struct stage_listener *listener,
                              struct source_statistics *statistics);

void source_statistics_free(struct source_statistics *statistics);

/* Adds TIMES examples of VALUE of a label source to its class counts (allocated at the first). */
int source_statistics_count_class(struct source_statistics *statistics, double value,
                                  uint64_t times);

#endif
