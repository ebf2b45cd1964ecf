/* The examples of a fixed-shape source read in blocks of about 4 MiB (with pread on the worker
   threads where the layout allows, else libhdf5 on the calling thread) and summarised there, each block into summaries of its own merged in the
   blocks' order, so that the results do not depend on the thread count; a run of rows never
   written (all their chunks unallocated: the fill value) is read once and counted as many times
   as it has rows. */
#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/base/threads.h"
#include "common/h5py/h5py_direct.h"
#include "statistics_blocks.h"
#include "written_rows.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES ((size_t)4 << 20)
/* The blocks' buffers held at once, at most (and at least one block). */
#define JOBS_BYTES ((size_t)32 << 20)
enum { JOBS_PER_THREAD = 2 };

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

/* One block: its examples and the summaries they make. */
struct block_job {
    struct channel_layout layout;
    struct numeric_type type;
    unsigned char *buffer;
    double *scratch;
    const struct h5py_direct *direct; /* NULL: BUFFER was read already */
    uint64_t first;                         /* the example read into BUFFER first */
    size_t count;
    struct value_summary *summaries;   /* one a channel */
    struct value_histogram *histograms; /* one a channel, NULL when none are counted */
};

struct block_reading {
    struct source_statistics *statistics;
    const struct h5py_examples *examples;
    const struct h5py_selection *selection;
    struct channel_layout layout;
    struct numeric_type type;
    size_t block;
    struct written_rows written;
    struct h5py_direct direct;
    struct ordered_pool *pool;
    struct block_job *jobs;
    size_t job_count, next_job;
};

static int block_summarise(void *argument)
{
    struct block_job *job = argument;
    int result = job->direct != NULL
                     ? h5py_direct_read(job->direct, job->first, job->count, job->buffer)
                     : EXIT_OK;
    if (result != EXIT_OK)
        return result;
    for (size_t channel = 0; channel < job->layout.channels; channel++) {
        value_summary_begin(&job->summaries[channel], job->type);
        if (job->histograms != NULL)
            memset(job->histograms[channel].counts, 0, sizeof job->histograms[channel].counts);
    }
    statistics_block_summarise_into(job->summaries, job->histograms, job->layout, job->buffer,
                                    job->count, job->type, job->scratch);
    return EXIT_OK;
}

/* Merges the oldest block's summaries and counts its labels. */
static int collect_oldest(struct block_reading *reading)
{
    void *argument;
    int result = ordered_pool_collect(reading->pool, &argument);
    struct block_job *job = argument;
    struct source_statistics *statistics = reading->statistics;
    for (size_t channel = 0; result == EXIT_OK && channel < job->layout.channels; channel++) {
        value_summary_merge(&statistics->channels[channel], &job->summaries[channel]);
        if (job->histograms != NULL)
            value_histogram_merge(&statistics->histograms[channel], &job->histograms[channel]);
    }
    return result == EXIT_OK ? labels_count(statistics, job->buffer, job->count, job->type, 1)
                             : result;
}

static int blocks_drain(struct block_reading *reading)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(reading->pool) > 0)
        result = collect_oldest(reading);
    return result;
}

/* Takes the examples from number DONE of the selection on: a block of written ones, handed to a
   worker, or a whole run of unwritten ones, added at once; *COUNT how many. */
static int block_take(struct block_reading *reading, uint64_t done, uint64_t *count)
{
    const struct h5py_selection *selection = reading->selection;
    uint64_t left = selection->count - done;
    bool written = true;
    if (selection->indices == NULL)
        left = written_rows_run(&reading->written, selection->start + done, left, &written);
    *count = written && left > reading->block ? reading->block : left;
    int result = written && ordered_pool_full(reading->pool) ? collect_oldest(reading)
                 : written                                   ? EXIT_OK
                                                             : blocks_drain(reading);
    struct block_job *job = &reading->jobs[reading->next_job];
    bool direct = written && selection->indices == NULL && reading->direct.descriptor >= 0;
    job->direct = direct ? &reading->direct : NULL;
    job->first = selection->start + done;
    if (result == EXIT_OK && !direct)
        result = selection->indices != NULL
                     ? h5py_examples_read_indices(reading->examples, selection->indices + done,
                                                  (size_t)*count, job->buffer)
                     : h5py_examples_read(reading->examples, selection->start + done,
                                          written ? (size_t)*count : 1, job->buffer);
    if (result != EXIT_OK)
        return result;
    if (!written)
        return repeated_add(reading->statistics, reading->layout, job->buffer, *count,
                            reading->type, job->scratch);
    job->count = (size_t)*count;
    ordered_pool_submit(reading->pool, job);
    reading->next_job = (reading->next_job + 1) % reading->job_count;
    return EXIT_OK;
}

/* Buffers, scratch and summaries for each job. */
static int jobs_make(struct block_reading *reading, size_t buffer_bytes, size_t scratch_values)
{
    struct source_statistics *statistics = reading->statistics;
    size_t channels = reading->layout.channels;
    for (size_t index = 0; index < reading->job_count; index++) {
        struct block_job *job = &reading->jobs[index];
        *job = (struct block_job){.layout = reading->layout, .type = reading->type};
        job->buffer = malloc(buffer_bytes + 1);
        job->summaries = calloc(channels, sizeof *job->summaries);
        if (scratch_values > 0)
            job->scratch = malloc(scratch_values * sizeof *job->scratch);
        if (statistics->histograms != NULL &&
            (job->histograms = malloc(channels * sizeof *job->histograms)) != NULL)
            memcpy(job->histograms, statistics->histograms, channels * sizeof *job->histograms);
        if (job->buffer == NULL || job->summaries == NULL ||
            (scratch_values > 0 && job->scratch == NULL) ||
            (statistics->histograms != NULL && job->histograms == NULL))
            return error_set(EXIT_OTHER, "cannot read source %s: out of memory",
                             reading->examples->source);
    }
    return EXIT_OK;
}

/* The jobs and the pool: two blocks a thread, within JOBS_BYTES. */
static int reading_begin(struct block_reading *reading)
{
    const struct h5py_examples *examples = reading->examples;
    reading->block = examples->example_bytes == 0 ? 1 : BLOCK_BYTES / examples->example_bytes;
    reading->block = reading->block == 0 ? 1 : reading->block;
    size_t buffer_bytes = reading->block * examples->example_bytes;
    size_t values = reading->statistics->overall.exact
                        ? 0
                        : reading->block * (examples->example_bytes / reading->type.size) + 1;
    unsigned threads = reading->statistics->options != NULL
                           ? reading->statistics->options->threads
                           : 0;
    threads = threads == 0 ? threads_default() : threads;
    size_t fitting = JOBS_BYTES / (buffer_bytes + values * sizeof(double) + 1);
    size_t jobs = (size_t)threads * JOBS_PER_THREAD;
    jobs = jobs < fitting ? jobs : fitting > 0 ? fitting : 1;
    reading->jobs = calloc(jobs, sizeof *reading->jobs);
    if (reading->jobs == NULL)
        return error_set(EXIT_OTHER, "cannot read source %s: out of memory", examples->source);
    reading->job_count = jobs;
    int result = jobs_make(reading, buffer_bytes, values);
    unsigned workers = jobs < threads ? (unsigned)jobs : threads;
    return result != EXIT_OK ? result
                             : ordered_pool_create_peers(&reading->pool, workers, jobs,
                                                         block_summarise);
}

static void reading_end(struct block_reading *reading)
{
    ordered_pool_destroy(reading->pool);
    for (size_t index = 0; reading->jobs != NULL && index < reading->job_count; index++) {
        free(reading->jobs[index].buffer);
        free(reading->jobs[index].scratch);
        free(reading->jobs[index].summaries);
        free(reading->jobs[index].histograms);
    }
    free(reading->jobs);
    written_rows_free(&reading->written);
}

int statistics_blocks_read(struct source_statistics *statistics,
                           const struct h5py_examples *examples, const char *path,
                           const struct h5py_selection *selection, struct channel_layout layout,
                           const struct stage_listener *listener)
{
    struct block_reading reading = {.statistics = statistics, .examples = examples,
                                    .selection = selection, .layout = layout,
                                    .type = numeric_type_from_descr(examples->descr)};
    int result = reading_begin(&reading);
    h5py_direct_open(&reading.direct, examples, path);
    if (result == EXIT_OK && selection->indices == NULL)
        result = written_rows_find(examples->dataset, selection->stop, &reading.written);
    uint64_t count = 0;
    for (uint64_t done = 0; result == EXIT_OK && done < selection->count; done += count) {
        result = block_take(&reading, done, &count);
        if (listener != NULL)
            listener->advance(listener->context, done + count);
    }
    if (result == EXIT_OK)
        result = blocks_drain(&reading);
    reading_end(&reading);
    h5py_direct_close(&reading.direct);
    return result;
}
