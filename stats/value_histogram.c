/* The counts of a channel's values in bins, for fuel stats --plot. */
#include "value_histogram.h"

#include <math.h>
#include <string.h>

bool value_histogram_exact_type(struct numeric_type type)
{
    return type.kind == 'b' || (type.size == 1 && (type.kind == 'u' || type.kind == 'i'));
}

void value_histogram_begin(struct value_histogram *histogram, struct numeric_type type)
{
    memset(histogram, 0, sizeof *histogram);
    histogram->bins = type.kind == 'b' ? 2 : 256;
    histogram->low = type.kind == 'i' ? -128 : 0;
    histogram->high = histogram->low + (double)histogram->bins - 1;
}

void value_histogram_begin_range(struct value_histogram *histogram, double low, double high)
{
    memset(histogram, 0, sizeof *histogram);
    histogram->ranged = true;
    histogram->bins = HISTOGRAM_RANGE_BINS;
    histogram->low = low == high ? low - 0.5 : low;
    histogram->high = low == high ? high + 0.5 : high;
}

/* Edge EDGE of the bins as numpy.linspace(low, high, bins + 1) computes it. */
static double edge(const struct value_histogram *histogram, size_t edge)
{
    if (edge == histogram->bins)
        return histogram->high;
    return (double)edge * ((histogram->high - histogram->low) / (double)histogram->bins) +
           histogram->low;
}

/* VALUE's bin as numpy.histogram finds it: from the scaled distance to the first edge, then
   moved by one where that disagrees with the edges themselves. */
static size_t ranged_bin(const struct value_histogram *histogram, double value)
{
    double norm = (double)histogram->bins / (histogram->high - histogram->low);
    double place = (value - histogram->low) * norm;
    size_t bin = place <= 0 ? 0 : place >= (double)histogram->bins ? histogram->bins - 1
                                                                  : (size_t)place;
    if (bin > 0 && value < edge(histogram, bin))
        bin--;
    else if (bin + 1 < histogram->bins && value >= edge(histogram, bin + 1))
        bin++;
    return bin;
}

static void add_ranged(struct value_histogram *histogram, const unsigned char *bytes,
                       size_t count, size_t stride, struct numeric_type type)
{
    for (size_t index = 0; index < count; index++) {
        double value = element_value(bytes, index * stride, type);
        if (isfinite(value))
            histogram->counts[ranged_bin(histogram, value)]++;
    }
}

void value_histogram_add(struct value_histogram *histogram, const void *elements, size_t count,
                         size_t stride, struct numeric_type type)
{
    const unsigned char *bytes = elements;
    if (histogram->ranged) {
        add_ranged(histogram, bytes, count, stride, type);
        return;
    }
    for (size_t index = 0; index < count; index++) {
        unsigned char value = bytes[index * stride];
        if (type.kind == 'b')
            histogram->counts[value != 0]++;
        else
            histogram->counts[type.kind == 'i' ? (size_t)((int)(signed char)value + 128) : value]++;
    }
}

void value_histogram_repeat(struct value_histogram *histogram, uint64_t times)
{
    for (size_t bin = 0; bin < histogram->bins; bin++)
        histogram->counts[bin] *= times;
}

void value_histogram_merge(struct value_histogram *histogram, const struct value_histogram *other)
{
    for (size_t bin = 0; bin < histogram->bins; bin++)
        histogram->counts[bin] += other->counts[bin];
}
