/* A running summary of numeric values: count, minimum, maximum, mean and population standard
   deviation (ddof 0) of the finite values, NaNs and infinities counted apart.

   Integers of 16 bits or fewer (and bools) are summed exactly (128-bit sums of the values and of
   their squares), so the mean and variance are the exact ones rounded once to float64. Other
   values are taken in blocks: each block's sum and its sum of squared deviations from the block's
   mean are two passes with Neumaier's compensated summation, and blocks are merged by Chan,
   Golub and LeVeque's pairwise update (M2 = M2a + M2b + delta^2 * na * nb / n), the running sum
   kept compensated too, every value shifted by the first finite one so that block means far from
   zero (1e8 + noise) lose no digits to rounding. Both agree with numpy's float64 mean() and std() to about 1e-15. */
#ifndef FUEL_STATS_VALUE_SUMMARY_H
#define FUEL_STATS_VALUE_SUMMARY_H

#include "common/h5py/h5py_elements.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct value_summary {
    bool exact;              /* integers summed exactly; else the float path */
    uint64_t count;          /* finite values */
    uint64_t nan_count;
    uint64_t infinity_count; /* +Inf and -Inf */
    double minimum, maximum; /* of the finite values; meaningless while count is 0 */
    __int128 sum;            /* exact path */
    unsigned __int128 square_sum;
    double shift;            /* float path: the first finite value, subtracted from all */
    bool shifted;
    double float_sum, float_compensation; /* float path: the shifted values' sum, compensated */
    double squared_deviations;            /* float path: M2 */
};

/* The summary TYPE's values start with: exact for integers and bools of up to 16 bits. */
void value_summary_begin(struct value_summary *summary, struct numeric_type type);

/* Adds COUNT values of TYPE at ELEMENTS, STRIDE elements apart (1: contiguous). SCRATCH holds
   COUNT doubles for the float path. */
void value_summary_add(struct value_summary *summary, const void *elements, size_t count,
                       size_t stride, struct numeric_type type, double *scratch);

/* Adds OTHER (of the same kind) into SUMMARY. */
void value_summary_merge(struct value_summary *summary, const struct value_summary *other);

/* SUMMARY as if each of its values had been added TIMES times. */
void value_summary_repeat(struct value_summary *summary, uint64_t times);

double value_summary_mean(const struct value_summary *summary);

/* sqrt(sum((x - mean)^2) / count). */
double value_summary_deviation(const struct value_summary *summary);

#endif
