/* A running summary of numeric values (value_summary.h says which arithmetic and why). */
#include "value_summary.h"
#include "byte_sums.h"

#include <math.h>
#include <string.h>

void value_summary_begin(struct value_summary *summary, struct numeric_type type)
{
    memset(summary, 0, sizeof *summary);
    summary->exact = type.kind != 'f' && type.size <= 2;
    summary->minimum = INFINITY;
    summary->maximum = -INFINITY;
}

/* Neumaier's compensated addition of VALUE into *SUM, its lost low part into *COMPENSATION. */
static void compensated_add(double *sum, double *compensation, double value)
{
    double total = *sum + value;
    if (fabs(*sum) >= fabs(value))
        *compensation += (*sum - total) + value;
    else
        *compensation += (value - total) + *sum;
    *sum = total;
}

/* Contiguous bytes, the common case of images: byte_sums.c's vector loop, in runs short enough
   for its 64-bit square sums (2^40 bytes). */
static void add_bytes(struct value_summary *summary, const uint8_t *bytes, size_t count)
{
    const size_t run = (size_t)1 << 40;
    for (size_t first = 0; first < count; first += run) {
        struct byte_sums sums;
        byte_sums_begin(&sums);
        byte_sums_add(&sums, bytes + first, count - first < run ? count - first : run);
        summary->sum += sums.sum;
        summary->square_sum += sums.square_sum;
        summary->minimum = fmin(summary->minimum, sums.minimum);
        summary->maximum = fmax(summary->maximum, sums.maximum);
    }
}

static int64_t small_integer(const unsigned char *at, struct numeric_type type)
{
    if (type.kind == 'b')
        return at[0] != 0;
    if (type.size == 1)
        return type.kind == 'i' ? (int8_t)at[0] : at[0];
    uint16_t bits;
    memcpy(&bits, at, sizeof bits);
    return type.kind == 'i' ? (int16_t)bits : bits;
}

static void add_exact(struct value_summary *summary, const void *elements, size_t count,
                      size_t stride, struct numeric_type type)
{
    summary->count += count;
    if (stride == 1 && type.kind == 'u' && type.size == 1) {
        add_bytes(summary, elements, count);
        return;
    }
    const unsigned char *bytes = elements;
    int64_t sum = 0, minimum = INT64_MAX, maximum = INT64_MIN;
    uint64_t square_sum = 0;
    for (size_t index = 0; index < count; index++) {
        int64_t value = small_integer(bytes + index * stride * type.size, type);
        sum += value;
        square_sum += (uint64_t)(value * value);
        minimum = value < minimum ? value : minimum;
        maximum = value > maximum ? value : maximum;
    }
    summary->sum += sum;
    summary->square_sum += square_sum;
    if (count > 0) {
        summary->minimum = fmin(summary->minimum, (double)minimum);
        summary->maximum = fmax(summary->maximum, (double)maximum);
    }
}

/* Moves the finite values of VALUES to its front, counting the others; returns how many. */
static size_t finite_values(struct value_summary *summary, double *values, size_t count)
{
    size_t finite = 0;
    for (size_t index = 0; index < count; index++) {
        double value = values[index];
        if (isnan(value))
            summary->nan_count++;
        else if (isinf(value))
            summary->infinity_count++;
        else
            values[finite++] = value;
    }
    return finite;
}

/* Merges a block of COUNT values, SUM (+ COMPENSATION) and squared deviations DEVIATIONS. */
static void merge_block(struct value_summary *summary, uint64_t count, double sum,
                        double compensation, double deviations)
{
    if (count == 0)
        return;
    if (summary->count > 0) {
        double mean = (summary->float_sum + summary->float_compensation) / (double)summary->count;
        double delta = (sum + compensation) / (double)count - mean;
        double total = (double)summary->count + (double)count;
        summary->squared_deviations +=
            deviations + delta * delta * ((double)summary->count * (double)count / total);
    } else {
        summary->squared_deviations = deviations;
    }
    compensated_add(&summary->float_sum, &summary->float_compensation, sum);
    compensated_add(&summary->float_sum, &summary->float_compensation, compensation);
    summary->count += count;
}

static void add_floats(struct value_summary *summary, const void *elements, size_t count,
                       size_t stride, struct numeric_type type, double *scratch)
{
    const unsigned char *bytes = elements;
    if (stride == 1)
        elements_to_float(elements, type, count, 1.0, true, scratch);
    else
        for (size_t index = 0; index < count; index++)
            scratch[index] = element_value(bytes, index * stride, type);
    size_t finite = finite_values(summary, scratch, count);
    if (finite == 0)
        return;
    if (!summary->shifted) {
        summary->shift = scratch[0];
        summary->shifted = true;
    }
    double sum = 0, compensation = 0;
    for (size_t index = 0; index < finite; index++) {
        summary->minimum = fmin(summary->minimum, scratch[index]);
        summary->maximum = fmax(summary->maximum, scratch[index]);
        scratch[index] -= summary->shift;
        compensated_add(&sum, &compensation, scratch[index]);
    }
    double mean = (sum + compensation) / (double)finite;
    double deviations = 0, deviations_compensation = 0;
    for (size_t index = 0; index < finite; index++) {
        double deviation = scratch[index] - mean;
        compensated_add(&deviations, &deviations_compensation, deviation * deviation);
    }
    merge_block(summary, finite, sum, compensation, deviations + deviations_compensation);
}

void value_summary_add(struct value_summary *summary, const void *elements, size_t count,
                       size_t stride, struct numeric_type type, double *scratch)
{
    if (summary->exact)
        add_exact(summary, elements, count, stride, type);
    else
        add_floats(summary, elements, count, stride, type, scratch);
}

void value_summary_merge(struct value_summary *summary, const struct value_summary *other)
{
    summary->nan_count += other->nan_count;
    summary->infinity_count += other->infinity_count;
    summary->minimum = fmin(summary->minimum, other->minimum);
    summary->maximum = fmax(summary->maximum, other->maximum);
    if (summary->exact) {
        summary->count += other->count;
        summary->sum += other->sum;
        summary->square_sum += other->square_sum;
    } else if (other->count > 0) {
        if (!summary->shifted) {
            summary->shift = other->shift;
            summary->shifted = true;
        }
        double translation = (other->shift - summary->shift) * (double)other->count;
        merge_block(summary, other->count, other->float_sum + translation,
                    other->float_compensation, other->squared_deviations);
    }
}

void value_summary_repeat(struct value_summary *summary, uint64_t times)
{
    summary->count *= times;
    summary->nan_count *= times;
    summary->infinity_count *= times;
    summary->sum *= (__int128)times;
    summary->square_sum *= times;
    /* copies of the same values share their mean: their squared deviations add up */
    summary->float_sum *= (double)times;
    summary->float_compensation *= (double)times;
    summary->squared_deviations *= (double)times;
}

double value_summary_mean(const struct value_summary *summary)
{
    if (summary->count == 0)
        return NAN;
    if (summary->exact)
        return (double)((long double)summary->sum / (long double)summary->count);
    return summary->shift +
           (summary->float_sum + summary->float_compensation) / (double)summary->count;
}

double value_summary_deviation(const struct value_summary *summary)
{
    if (summary->count == 0)
        return NAN;
    if (!summary->exact)
        return sqrt(summary->squared_deviations / (double)summary->count);
    /* count * sum(x^2) - sum(x)^2, exact: n^2 times the variance */
    unsigned __int128 count = summary->count;
    unsigned __int128 square = (unsigned __int128)(summary->sum < 0 ? -summary->sum : summary->sum);
    unsigned __int128 numerator = count * summary->square_sum - square * square;
    long double variance = (long double)numerator / ((long double)count * (long double)count);
    return (double)sqrtl(variance);
}
