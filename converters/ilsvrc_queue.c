/* ILSVRC images checked on worker threads and written in the order they were read, in batches:
   one point-selection write per source for BATCH_EXAMPLES images. A batch's bytes go to the
   file's heap in the order read, one after the other, whatever their places; only the 16-byte
   heap references, the targets and the file names land at the (permuted) places, so the shuffled
   training order costs no random writes of image data. libhdf5 is not thread-safe: every HDF5
   call stays in this thread. Memory is bounded by bytes: the members on their way by what may be
   kept (a member waits for older ones to be written), their decodings by the budget they take
   from on the workers; a job's buffers grown beyond its share are freed once it is written. */
#include "ilsvrc_conversion.h"

#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JOBS_PER_THREAD = 16, MAXIMUM_BAD = 100000 };

int ilsvrc_queue_start(struct ilsvrc_conversion *conversion)
{
    unsigned threads = conversion->arguments->threads;
    conversion->job_count = threads > 1 ? (size_t)threads * JOBS_PER_THREAD : 1;
    conversion->jobs = calloc(conversion->job_count, sizeof *conversion->jobs);
    if (conversion->jobs == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->next_job = 0;
    conversion->queued_bytes = 0;
    int result = memory_budget_init(&conversion->budget, MEMORY_BUDGET_IN_FLIGHT);
    if (result != EXIT_OK) {
        free(conversion->jobs);
        conversion->jobs = NULL;
        return result;
    }
    for (size_t index = 0; index < conversion->job_count; index++)
        conversion->jobs[index].budget = &conversion->budget;
    return ordered_pool_create(&conversion->pool, threads, conversion->job_count,
                               ilsvrc_job_check);
}

void ilsvrc_queue_stop(struct ilsvrc_conversion *conversion)
{
    ordered_pool_destroy(conversion->pool);
    conversion->pool = NULL;
    if (conversion->jobs != NULL)
        memory_budget_destroy(&conversion->budget);
    for (size_t index = 0; conversion->jobs != NULL && index < conversion->job_count; index++)
        ilsvrc_job_free(&conversion->jobs[index]);
    free(conversion->jobs);
    conversion->jobs = NULL;
    free(conversion->batch.data);
    conversion->batch = (struct ilsvrc_batch){0};
}

/* Writes the batch: the images' bytes, then their targets (splits that have them) and names. */
static int flush_batch(struct ilsvrc_conversion *conversion)
{
    struct ilsvrc_batch *batch = &conversion->batch;
    if (batch->count == 0)
        return EXIT_OK;
    const void *data[BATCH_EXAMPLES];
    for (size_t index = 0; index < batch->count; index++)
        data[index] = batch->data + batch->offsets[index];
    struct h5py_writer *writer = conversion->writer;
    int result = h5py_writer_write_sequences_at(writer, conversion->sources[0], batch->places,
                                                batch->count, data, batch->lengths);
    bool targets = conversion->split != SPLIT_TEST ||
                   conversion->layout->test_truth_file != ILSVRC_NONE;
    if (result == EXIT_OK && targets)
        result = h5py_writer_write_rows_at(writer, conversion->sources[1], batch->places,
                                           batch->count, batch->targets);
    if (result == EXIT_OK)
        result = h5py_writer_write_rows_at(writer, conversion->sources[2], batch->places,
                                           batch->count, batch->filenames);
    batch->count = 0;
    batch->used = 0;
    return result;
}

static int gather(struct ilsvrc_conversion *conversion, const struct ilsvrc_job *job)
{
    struct ilsvrc_batch *batch = &conversion->batch;
    if (batch->count == BATCH_EXAMPLES || batch->capacity - batch->used < job->stored_size) {
        int result = flush_batch(conversion);
        if (result != EXIT_OK)
            return result;
    }
    if (batch->capacity - batch->used < job->stored_size) {
        size_t capacity = job->stored_size > BATCH_BYTES ? job->stored_size : BATCH_BYTES;
        unsigned char *grown = realloc(batch->data, capacity);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
        batch->data = grown;
        batch->capacity = capacity;
    }
    size_t index = batch->count++;
    memcpy(batch->data + batch->used, job->stored, job->stored_size);
    batch->offsets[index] = batch->used;
    batch->lengths[index] = job->stored_size;
    batch->used += job->stored_size;
    batch->places[index] = job->place;
    batch->targets[index] = job->target;
    memcpy(batch->filenames[index], job->filename, ILSVRC_FILENAME_BYTES);
    return EXIT_OK;
}

/* --skip-bad's first pass: keeps the label of an image that does not decode. */
static int remember_bad(struct ilsvrc_conversion *conversion, const struct ilsvrc_job *job)
{
    if (conversion->bad_count == MAXIMUM_BAD)
        return error_set(EXIT_CORRUPT_INPUT, "too many bad images: more than %d do not decode; "
                         "the last: %s", MAXIMUM_BAD, job->reason);
    if (conversion->bad_count == conversion->bad_capacity) {
        size_t capacity = conversion->bad_capacity == 0 ? 64 : 2 * conversion->bad_capacity;
        char **grown = realloc(conversion->bad, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
        conversion->bad = grown;
        conversion->bad_capacity = capacity;
    }
    if ((conversion->bad[conversion->bad_count] = strdup(job->label)) == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->bad_count++;
    conversion->bad_in[conversion->split]++;
    return converter_note_append(conversion->arguments, "skipped_images", job->reason);
}

/* Frees JOB's buffers when they hold more than a job's share of what may be kept. */
static void trim(const struct ilsvrc_conversion *conversion, struct ilsvrc_job *job)
{
    if (job->capacity + job->inflated_capacity <= MEMORY_BUDGET_KEPT / conversion->job_count)
        return;
    free(job->bytes);
    free(job->inflated);
    job->bytes = job->inflated = NULL;
    job->capacity = job->inflated_capacity = 0;
}

static int write_oldest(struct ilsvrc_conversion *conversion)
{
    void *argument;
    int result = ordered_pool_collect(conversion->pool, &argument);
    struct ilsvrc_job *job = argument;
    if (result == EXIT_OK && job->bad)
        result = remember_bad(conversion, job);
    else if (result == EXIT_OK && !conversion->checking)
        result = gather(conversion, job);
    converter_report_done(conversion->arguments, ++conversion->done);
    conversion->queued_bytes -= job->charged;
    job->charged = 0;
    trim(conversion, job);
    return result;
}

int ilsvrc_next_job(struct ilsvrc_conversion *conversion, const char *label,
                    struct ilsvrc_job **job)
{
    if (ordered_pool_full(conversion->pool)) {
        int result = write_oldest(conversion);
        if (result != EXIT_OK)
            return result;
    }
    *job = &conversion->jobs[conversion->next_job];
    conversion->next_job = (conversion->next_job + 1) % conversion->job_count;
    snprintf((*job)->label, sizeof (*job)->label, "%s", label);
    (*job)->skip_bad = conversion->checking;
    (*job)->place = 0;
    (*job)->target = 0;
    return EXIT_OK;
}

int ilsvrc_queue(struct ilsvrc_conversion *conversion, struct ilsvrc_job *job)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(conversion->pool) > 0 &&
           conversion->queued_bytes + job->size > MEMORY_BUDGET_KEPT)
        result = write_oldest(conversion);
    if (result != EXIT_OK)
        return result;
    job->charged = job->size;
    conversion->queued_bytes += job->size;
    ordered_pool_submit(conversion->pool, job);
    return EXIT_OK;
}

int ilsvrc_drain(struct ilsvrc_conversion *conversion)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(conversion->pool) > 0)
        result = write_oldest(conversion);
    if (result == EXIT_OK && !conversion->checking)
        result = flush_batch(conversion);
    return result;
}

static int compare_labels(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

bool ilsvrc_is_bad(const struct ilsvrc_conversion *conversion, const char *label)
{
    if (conversion->bad_count == 0)
        return false;
    return bsearch(&label, conversion->bad, conversion->bad_count, sizeof *conversion->bad,
                   compare_labels) != NULL;
}

void ilsvrc_sort_bad(struct ilsvrc_conversion *conversion)
{
    if (conversion->bad_count > 1)
        qsort(conversion->bad, conversion->bad_count, sizeof *conversion->bad, compare_labels);
}
