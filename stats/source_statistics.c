/* The statistics of one split of one fixed-shape source, its examples read in blocks of about
   4 MiB; variable-length sources are handed to vlen_statistics.c. */
#include "source_statistics.h"

#include "common/base/error.h"
#include "statistics_blocks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


bool statistics_label_name(const char *name)
{
    return strstr(name, "target") != NULL || strstr(name, "label") != NULL;
}

static struct channel_layout layout_of(const struct h5py_file_source *facts)
{
    struct channel_layout layout = {1, 1, 1, false};
    int channel_axis = 0;
    for (int axis = 1; axis < facts->rank && (size_t)axis < facts->axis_label_count; axis++)
        if (strcmp(facts->axis_labels[axis], "channel") == 0)
            channel_axis = axis;
    layout.labelled = channel_axis != 0;
    for (int axis = 1; axis < facts->rank; axis++) {
        size_t length = (size_t)facts->shape[axis];
        if (channel_axis == 0 || axis > channel_axis)
            layout.inner *= length;
        else if (axis == channel_axis)
            layout.channels = length;
        else
            layout.outer *= length;
    }
    return layout;
}

int source_statistics_count_class(struct source_statistics *statistics, double value,
                                  uint64_t times)
{
    if (!(value >= 0 && value < STATISTICS_MAX_CLASSES && value == floor(value))) {
        statistics->unclassed += times;
        return EXIT_OK;
    }
    if (statistics->class_counts == NULL) {
        statistics->class_counts = calloc(STATISTICS_MAX_CLASSES, sizeof(uint64_t));
        if (statistics->class_counts == NULL)
            return error_set(EXIT_OTHER, "cannot count classes: out of memory");
    }
    size_t class = (size_t)value;
    statistics->class_counts[class] += times;
    if (class + 1 > statistics->class_limit)
        statistics->class_limit = class + 1;
    return EXIT_OK;
}

void statistics_block_summarise_into(struct value_summary *summaries,
                                     struct value_histogram *histograms,
                                     struct channel_layout layout, const unsigned char *data,
                                     size_t examples, struct numeric_type type, double *scratch)
{
    size_t channels = layout.channels;
    if (layout.inner == 1 || channels == 1) {
        size_t values = examples * layout.outer * layout.inner;
        for (size_t channel = 0; channel < channels; channel++) {
            const unsigned char *first = data + channel * layout.inner * type.size;
            value_summary_add(&summaries[channel], first, values, channels, type, scratch);
            if (histograms != NULL)
                value_histogram_add(&histograms[channel], first, values, channels, type);
        }
        return;
    }
    size_t run_bytes = layout.inner * type.size;
    for (size_t run = 0; run < examples * layout.outer * channels; run++) {
        const unsigned char *first = data + run * run_bytes;
        value_summary_add(&summaries[run % channels], first, layout.inner, 1, type, scratch);
        if (histograms != NULL)
            value_histogram_add(&histograms[run % channels], first, layout.inner, 1, type);
    }
}

void statistics_block_summarise(struct source_statistics *statistics, struct channel_layout layout,
                            const unsigned char *data, size_t examples, struct numeric_type type,
                            double *scratch)
{
    statistics_block_summarise_into(statistics->channels, statistics->histograms, layout, data,
                                    examples, type, scratch);
}

/* Histogram NUMBER begun as the options ask: over the range of the first pass' channel (or of all
   its values), else one bin per value. */
static void histogram_begin(const struct source_statistics *statistics, size_t number,
                            struct value_histogram *histogram, struct numeric_type type)
{
    const struct source_statistics *ranges = statistics->options->ranges;
    if (ranges == NULL) {
        value_histogram_begin(histogram, type);
        return;
    }
    const struct value_summary *range = number < ranges->channel_count ? &ranges->channels[number]
                                                                        : &ranges->overall;
    value_histogram_begin_range(histogram, range->count > 0 ? range->minimum : 0,
                                range->count > 0 ? range->maximum : 0);
}

int statistics_histograms_reserve(struct source_statistics *statistics, size_t count,
                                  struct numeric_type type)
{
    const struct statistics_options *options = statistics->options;
    if (count <= statistics->histogram_count || options == NULL || !options->histograms ||
        (options->ranges == NULL && !value_histogram_exact_type(type)))
        return EXIT_OK;
    struct value_histogram *grown = realloc(statistics->histograms, count * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot count values: out of memory");
    for (size_t number = statistics->histogram_count; number < count; number++)
        histogram_begin(statistics, number, &grown[number], type);
    statistics->histograms = grown;
    statistics->histogram_count = count;
    return EXIT_OK;
}

int statistics_channels_reserve(struct source_statistics *statistics, size_t count,
                                struct numeric_type type)
{
    int result = statistics_histograms_reserve(statistics, count, type);
    if (result != EXIT_OK || count <= statistics->channel_capacity)
        return result;
    struct value_summary *grown = realloc(statistics->channels, count * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot summarise: out of memory");
    for (size_t channel = statistics->channel_capacity; channel < count; channel++)
        value_summary_begin(&grown[channel], type);
    statistics->channels = grown;
    statistics->channel_capacity = count;
    return EXIT_OK;
}

static int summaries_begin(struct source_statistics *statistics, struct channel_layout layout,
                           struct numeric_type type)
{
    int result = statistics_channels_reserve(statistics, layout.channels, type);
    value_summary_begin(&statistics->overall, type);
    statistics->channel_count = layout.labelled ? layout.channels : 0;
    statistics->numeric = true;
    return result;
}

static int fixed_statistics(const struct h5py_file *file, const char *source,
                            const struct h5py_selection *selection,
                            const struct stage_listener *listener,
                            struct source_statistics *statistics)
{
    struct h5py_examples examples;
    int result = h5py_examples_open_strings(&examples, file, source);
    if (result != EXIT_OK)
        return result;
    const struct h5py_file_source *facts = h5py_file_source(file, source);
    snprintf(statistics->dtype, sizeof statistics->dtype, "%s", facts->dtype);
    if (examples.is_string) { /* strings (ImageNet's file names) are counted only */
        h5py_examples_close(&examples);
        return EXIT_OK;
    }
    struct channel_layout layout = layout_of(facts);
    statistics->is_label = examples.example_bytes == examples.element_size &&
                           statistics_label_name(source);
    struct numeric_type type = numeric_type_from_descr(examples.descr);
    if (!statistics->is_label && statistics_label_name(source) && facts->rank == 2 &&
        facts->shape[1] > 1 && facts->shape[1] <= STATISTICS_MAX_ATTRIBUTES && type.kind != 'f') {
        statistics->attribute_count = (size_t)facts->shape[1];
        statistics->attribute_counts = calloc(statistics->attribute_count, sizeof(uint64_t));
        if (statistics->attribute_counts == NULL)
            result = error_set(EXIT_OTHER, "cannot count attributes: out of memory");
    }
    if (result == EXIT_OK)
        result = summaries_begin(statistics, layout, type);
    if (result == EXIT_OK)
        result = statistics_blocks_read(statistics, &examples, file->path, selection, layout,
                                        listener);
    for (size_t channel = 0; result == EXIT_OK && channel < layout.channels; channel++)
        value_summary_merge(&statistics->overall, &statistics->channels[channel]);
    h5py_examples_close(&examples);
    return result;
}

int source_statistics_compute(const struct h5py_file *file, const char *split,
                              const char *source, const struct statistics_options *options,
                              const struct stage_listener *listener,
                              struct source_statistics *statistics)
{
    memset(statistics, 0, sizeof *statistics);
    statistics->options = options;
    struct h5py_selection selection;
    int result = h5py_selection_find(&selection, file, split, source);
    if (result != EXIT_OK)
        return result;
    statistics->examples = selection.count;
    const struct h5py_file_source *facts = h5py_file_source(file, source);
    if (listener != NULL) {
        char label[512];
        snprintf(label, sizeof label, "%s %s", split, source);
        listener->stage(listener->context, label, selection.count, "examples");
    }
    statistics->variable_length = facts->variable_length;
    if (facts->variable_length)
        result = vlen_statistics_compute(file, source, &selection, options, listener,
                                         statistics);
    else
        result = fixed_statistics(file, source, &selection, listener, statistics);
    h5py_selection_free(&selection);
    return result;
}

void source_statistics_free(struct source_statistics *statistics)
{
    free(statistics->channels);
    free(statistics->histograms);
    free(statistics->class_counts);
    free(statistics->attribute_counts);
    memset(statistics, 0, sizeof *statistics);
}
