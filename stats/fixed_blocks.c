/* The examples of a fixed-shape source read in blocks of about 4 MiB and summarised; a run of rows
   never written (all their chunks unallocated: the fill value) is read once and counted as many
   times as it has rows. */
#include "common/base/error.h"
#include "statistics_blocks.h"
#include "written_rows.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES ((size_t)4 << 20)

/* Counts, for each attribute of the COUNT multi-label examples at DATA, those where it is set,
   each TIMES times. */
static void attributes_count(struct source_statistics *statistics, const unsigned char *data,
                             size_t count, struct numeric_type type, uint64_t times)
{
    size_t attributes = statistics->attribute_count;
    for (size_t example = 0; example < count; example++)
        for (size_t attribute = 0; attribute < attributes; attribute++)
            statistics->attribute_counts[attribute] +=
                (element_value(data, example * attributes + attribute, type) != 0) * times;
}

/* Classes and attributes of the COUNT examples at DATA, each TIMES times. */
static int labels_count(struct source_statistics *statistics, const unsigned char *data,
                        size_t count, struct numeric_type type, uint64_t times)
{
    if (statistics->attribute_counts != NULL)
        attributes_count(statistics, data, count, type, times);
    int result = EXIT_OK;
    for (size_t example = 0; statistics->is_label && result == EXIT_OK && example < count;
         example++)
        result = source_statistics_count_class(statistics, element_value(data, example, type),
                                               times);
    return result;
}

/* The one example at DATA added TIMES times: summarised alone, then repeated and merged. */
static int repeated_add(struct source_statistics *statistics, struct channel_layout layout,
                        const unsigned char *data, uint64_t times, struct numeric_type type,
                        double *scratch)
{
    struct value_summary *kept = statistics->channels, *once = calloc(layout.channels, sizeof *once);
    struct value_histogram *kept_histograms = statistics->histograms, *histograms = NULL;
    if (kept_histograms != NULL)
        histograms = malloc(layout.channels * sizeof *histograms);
    if (once == NULL || (kept_histograms != NULL && histograms == NULL)) {
        free(once);
        free(histograms);
        return error_set(EXIT_OTHER, "cannot summarise: out of memory");
    }
    for (size_t channel = 0; channel < layout.channels; channel++) {
        value_summary_begin(&once[channel], type);
        if (histograms != NULL) {
            histograms[channel] = kept_histograms[channel];
            memset(histograms[channel].counts, 0, sizeof histograms[channel].counts);
        }
    }
    statistics->channels = once;
    statistics->histograms = histograms;
    statistics_block_summarise(statistics, layout, data, 1, type, scratch);
    statistics->channels = kept;
    statistics->histograms = kept_histograms;
    for (size_t channel = 0; channel < layout.channels; channel++) {
        value_summary_repeat(&once[channel], times);
        value_summary_merge(&kept[channel], &once[channel]);
        if (histograms != NULL) {
            value_histogram_repeat(&histograms[channel], times);
            value_histogram_merge(&kept_histograms[channel], &histograms[channel]);
        }
    }
    free(once);
    free(histograms);
    return labels_count(statistics, data, 1, type, times);
}

struct block_reading {
    const struct h5py_examples *examples;
    const struct h5py_selection *selection;
    struct channel_layout layout;
    struct numeric_type type;
    unsigned char *buffer;
    double *scratch;
    size_t block;
    struct written_rows written;
};

/* Takes the examples from number DONE of the selection on: a block of written ones, or a whole
   run of unwritten ones; *COUNT how many. */
static int block_take(struct source_statistics *statistics, struct block_reading *reading,
                      uint64_t done, uint64_t *count)
{
    const struct h5py_selection *selection = reading->selection;
    uint64_t left = selection->count - done;
    bool written = true;
    if (selection->indices == NULL)
        left = written_rows_run(&reading->written, selection->start + done, left, &written);
    *count = written && left > reading->block ? reading->block : left;
    int result = selection->indices != NULL
                     ? h5py_examples_read_indices(reading->examples, selection->indices + done,
                                                  (size_t)*count, reading->buffer)
                     : h5py_examples_read(reading->examples, selection->start + done,
                                          written ? (size_t)*count : 1, reading->buffer);
    if (result != EXIT_OK)
        return result;
    if (!written)
        return repeated_add(statistics, reading->layout, reading->buffer, *count, reading->type,
                            reading->scratch);
    statistics_block_summarise(statistics, reading->layout, reading->buffer, (size_t)*count,
                               reading->type, reading->scratch);
    return labels_count(statistics, reading->buffer, (size_t)*count, reading->type, 1);
}

int statistics_blocks_read(struct source_statistics *statistics,
                           const struct h5py_examples *examples,
                           const struct h5py_selection *selection, struct channel_layout layout,
                           const struct stage_listener *listener)
{
    struct block_reading reading = {.examples = examples, .selection = selection,
                                    .layout = layout,
                                    .type = numeric_type_from_descr(examples->descr)};
    reading.block = examples->example_bytes == 0 ? 1 : BLOCK_BYTES / examples->example_bytes;
    reading.block = reading.block == 0 ? 1 : reading.block;
    size_t values = reading.block * (examples->example_bytes / reading.type.size);
    reading.buffer = malloc(reading.block * examples->example_bytes + 1);
    if (!statistics->overall.exact)
        reading.scratch = malloc(values * sizeof *reading.scratch + 1);
    int result = reading.buffer == NULL || (!statistics->overall.exact && reading.scratch == NULL)
                     ? error_set(EXIT_OTHER, "cannot read source %s: out of memory",
                                 examples->source)
                     : EXIT_OK;
    if (result == EXIT_OK && selection->indices == NULL)
        result = written_rows_find(examples->dataset, selection->stop, &reading.written);
    uint64_t count = 0;
    for (uint64_t done = 0; result == EXIT_OK && done < selection->count; done += count) {
        result = block_take(statistics, &reading, done, &count);
        if (listener != NULL)
            listener->advance(listener->context, done + count);
    }
    written_rows_free(&reading.written);
    free(reading.buffer);
    free(reading.scratch);
    return result;
}
