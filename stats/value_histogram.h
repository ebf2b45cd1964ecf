/* The counts of a channel's values for fuel stats --plot: one bin per value for 8-bit types and
   bools (exact in one pass), else HISTOGRAM_RANGE_BINS equal bins between a first pass' minimum
   and maximum, as numpy.histogram(values in float64, HISTOGRAM_RANGE_BINS) makes them (its
   range widened by 0.5 each side when all values are one). NaN and infinities are not counted. */
#ifndef FUEL_STATS_VALUE_HISTOGRAM_H
#define FUEL_STATS_VALUE_HISTOGRAM_H

#include "common/h5py/h5py_elements.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HISTOGRAM_MAX_BINS = 256, HISTOGRAM_RANGE_BINS = 64 };

struct value_histogram {
    bool ranged;       /* equal bins over [low, high]; else one bin per value from low */
    double low, high;
    size_t bins;
    uint64_t counts[HISTOGRAM_MAX_BINS];
};

/* Whether TYPE's values have a bin each (uint8, int8, bool). */
bool value_histogram_exact_type(struct numeric_type type);

/* A histogram of one bin per value of TYPE (value_histogram_exact_type). */
void value_histogram_begin(struct value_histogram *histogram, struct numeric_type type);

/* A histogram of HISTOGRAM_RANGE_BINS bins over [LOW, HIGH] ([LOW - 0.5, HIGH + 0.5] when equal). */
void value_histogram_begin_range(struct value_histogram *histogram, double low, double high);

/* Counts COUNT values of TYPE at ELEMENTS, STRIDE elements apart. */
void value_histogram_add(struct value_histogram *histogram, const void *elements, size_t count,
                         size_t stride, struct numeric_type type);

/* HISTOGRAM as if each of its values had been counted TIMES times. */
void value_histogram_repeat(struct value_histogram *histogram, uint64_t times);

void value_histogram_merge(struct value_histogram *histogram, const struct value_histogram *other);

#endif
