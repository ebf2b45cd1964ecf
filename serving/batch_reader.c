/* The reader thread: the file, its sources and split selections, the plan, and the batches read
   ahead, all opened, used and closed in that thread (Debian's HDF5 is not thread-safe). */
#include "batch_reader.h"

#include "serving/batch_plan.h"
#include "common/base/error.h"
#include "common/base/threads.h"
#include "common/h5py/h5py_examples.h"
#include "common/h5py/h5py_names.h"
#include "common/h5py/h5py_input.h"
#include "fuel_wire.h"
#include "source_batch.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One batch's arrays may take at most this much memory each. */
#define BATCH_ARRAY_MAX ((size_t)1 << 30)
/* Sources that fit in this much memory together are read once (labels, small datasets). */
#define RESIDENT_BUDGET ((size_t)32 << 20)
/* Batches alive at once: the reader's queue, ZeroMQ's queue (both the high-water mark), the one
   being read, the one being sent and the frame in the kernel's hands. */
#define BATCHES_IN_FLIGHT(hwm) (2 * (hwm) + 3)

struct batch_reader {
    struct serve_request request;
    struct serving_facts facts;
    struct batch_queue queue;
    pthread_t thread;
    sem_t started;
    int start_result;
    char start_message[2048];
    /* Used by the reader thread only. */
    struct h5py_file *file;
    size_t source_count;
    struct source_batch sources[SERVED_SOURCES_MAX];
    struct batch_plan plan;
    uint64_t *numbers;
};

/* The split's available sources, in file order. */
static int sources_default(struct batch_reader *reader)
{
    const struct h5py_file *file = reader->file;
    for (size_t source = 0; source < file->source_count; source++)
        for (size_t row = 0; row < file->row_count; row++)
            if (strcmp(file->rows[row].split, reader->request.split) == 0 &&
                strcmp(file->rows[row].source, file->sources[source].name) == 0 &&
                file->rows[row].available && reader->request.source_count < SERVED_SOURCES_MAX)
                reader->request.sources[reader->request.source_count++] = file->sources[source].name;
    if (reader->request.source_count == 0) {
        char splits[1024];
        h5py_split_list(file, splits, sizeof splits);
        return error_set(EXIT_USAGE, "no split %s: %s; %s", reader->request.split, file->path,
                         splits);
    }
    return EXIT_OK;
}

static bool listed(const char *const *names, size_t count, const char *name)
{
    for (size_t index = 0; index < count; index++)
        if (strcmp(names[index], name) == 0)
            return true;
    return false;
}

/* Whether --dtype converts SOURCE: those named, else `features` when served, else all. */
static bool converted(const struct serve_request *request, const char *source)
{
    if (!request->to_float32)
        return false;
    if (request->converted_count > 0)
        return listed(request->converted, request->converted_count, source);
    if (listed(request->sources, request->source_count, "features"))
        return strcmp(source, "features") == 0;
    return true;
}

static int converted_check(const struct serve_request *request, const char *path)
{
    for (size_t index = 0; index < request->converted_count; index++)
        if (!listed(request->sources, request->source_count, request->converted[index]))
            return error_set(EXIT_USAGE, "cannot convert source %s: it is not served: %s",
                             request->converted[index], path);
    return EXIT_OK;
}

static int sources_open(struct batch_reader *reader)
{
    const struct serve_request *request = &reader->request;
    size_t budget = RESIDENT_BUDGET;
    int result = converted_check(request, reader->file->path);
    for (size_t index = 0; result == EXIT_OK && index < request->source_count; index++) {
        const char *name = request->sources[index];
        if (h5py_file_source(reader->file, name) == NULL) {
            char sources[1024];
            h5py_source_list(reader->file, sources, sizeof sources);
            result = error_set(EXIT_USAGE, "no source %s: %s; %s", name, reader->file->path,
                               sources);
            break;
        }
        result = source_batch_open(&reader->sources[index], reader->file, request->split, name,
                                   converted(request, name), request->scale, &budget);
        reader->source_count = result == EXIT_OK ? index + 1 : index;
        uint64_t count = reader->sources[index].selection.count;
        if (result == EXIT_OK && count != reader->sources[0].selection.count)
            result = error_set(EXIT_CORRUPT_INPUT, "sources of split %s hold different numbers "
                               "of examples: %s %llu, %s %llu: %s", request->split,
                               request->sources[0],
                               (unsigned long long)reader->sources[0].selection.count, name,
                               (unsigned long long)count, reader->file->path);
        if (result == EXIT_OK &&
            reader->sources[index].example_bytes > BATCH_ARRAY_MAX / request->batch_size)
            result = error_set(EXIT_USAGE, "batches of %llu examples of source %s would take "
                               "over 1 GiB: use a smaller --batch-size",
                               (unsigned long long)request->batch_size, name);
        if (result == EXIT_OK)
            result = source_batch_keep(&reader->sources[index], request->batch_size,
                                       BATCHES_IN_FLIGHT(request->queue_capacity));
    }
    return result;
}

static void facts_fill(struct batch_reader *reader)
{
    struct serving_facts *facts = &reader->facts;
    facts->examples = reader->plan.examples;
    facts->share_examples = reader->plan.share_count;
    facts->batches_per_epoch = batch_plan_batches(&reader->plan);
    facts->source_count = reader->source_count;
    for (size_t index = 0; index < reader->source_count; index++) {
        facts->sources[index] = reader->request.sources[index];
        memcpy(facts->descrs[index], reader->sources[index].descr, sizeof facts->descrs[index]);
    }
}

static int reader_open(struct batch_reader *reader)
{
    const struct serve_request *request = &reader->request;
    int result = h5py_input_open(&reader->file, request->path);
    if (result == EXIT_OK && request->source_count == 0)
        result = sources_default(reader);
    if (result == EXIT_OK)
        result = sources_open(reader);
    if (result == EXIT_OK)
        result = batch_plan_init(&reader->plan, reader->sources[0].selection.count,
                                 request->batch_size, request->shuffle, request->seed,
                                 request->part, request->parts);
    if (result == EXIT_OK) {
        reader->numbers = malloc(request->batch_size * sizeof *reader->numbers);
        if (reader->numbers == NULL)
            result = error_set(EXIT_OTHER, "cannot plan batches: out of memory");
    }
    if (result == EXIT_OK)
        facts_fill(reader);
    return result;
}

static void reader_close(struct batch_reader *reader)
{
    for (size_t index = 0; index < reader->source_count; index++)
        source_batch_close(&reader->sources[index]);
    reader->source_count = 0;
    h5py_reader_close(reader->file);
    reader->file = NULL;
    free(reader->numbers);
    reader->numbers = NULL;
}

/* Batch NUMBER of the current epoch, read from every source; NULL with the error set. */
static struct served_batch *batch_read(struct batch_reader *reader, uint64_t epoch,
                                       uint64_t number)
{
    struct served_batch *batch = calloc(1, sizeof *batch);
    if (batch == NULL) {
        error_set(EXIT_OTHER, "cannot read a batch: out of memory");
        return NULL;
    }
    *batch = (struct served_batch){.epoch = epoch, .number = number};
    batch->examples = batch_plan_batch(&reader->plan, number, reader->numbers);
    struct wire_array arrays[SERVED_SOURCES_MAX];
    uint64_t shapes[SERVED_SOURCES_MAX][H5PY_EXAMPLES_MAX_RANK];
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < reader->source_count; index++) {
        struct source_batch *source = &reader->sources[index];
        batch->array_count = index + 1;
        result = source_batch_read(source, reader->numbers, batch->examples, !reader->plan.shuffle,
                                   &batch->arrays[index], &batch->sizes[index],
                                   &batch->pools[index]);
        source_batch_shape(source, batch->examples, shapes[index]);
        arrays[index] = (struct wire_array){source->descr, source->examples.rank, shapes[index]};
    }
    if (result == EXIT_OK && (batch->header = wire_header(arrays, reader->source_count)) == NULL)
        result = error_set(EXIT_OTHER, "cannot encode a batch header: out of memory");
    if (result != EXIT_OK) {
        served_batch_free(batch);
        return NULL;
    }
    return batch;
}

/* Queues every batch of every epoch, each epoch ended by its stop message. */
static int reader_produce(struct batch_reader *reader)
{
    uint64_t batches = batch_plan_batches(&reader->plan);
    for (uint64_t epoch = 0; reader->request.epochs == 0 || epoch < reader->request.epochs;
         epoch++) {
        batch_plan_epoch(&reader->plan, epoch);
        for (uint64_t number = 0; number <= batches; number++) {
            struct served_batch *batch = NULL;
            if (number < batches)
                batch = batch_read(reader, epoch, number);
            else if ((batch = calloc(1, sizeof *batch)) != NULL)
                *batch = (struct served_batch){.end_of_epoch = true, .epoch = epoch,
                                               .number = number};
            if (batch == NULL)
                return number < batches ? error_code()
                                        : error_set(EXIT_OTHER, "out of memory");
            if (!batch_queue_put(&reader->queue, batch))
                return EXIT_OK;
        }
    }
    return EXIT_OK;
}

static void *reader_main(void *argument)
{
    struct batch_reader *reader = argument;
    error_clear();
    int result = reader_open(reader);
    reader->start_result = result;
    snprintf(reader->start_message, sizeof reader->start_message, "%s", error_message());
    sem_post(&reader->started);
    if (result == EXIT_OK) {
        error_clear();
        result = reader_produce(reader);
        batch_queue_finish(&reader->queue, result, error_message());
        batch_queue_wait_cancel(&reader->queue);
    }
    reader_close(reader);
    return NULL;
}

int batch_reader_start(struct batch_reader **started, const struct serve_request *request,
                       struct serving_facts *facts)
{
    struct batch_reader *reader = calloc(1, sizeof *reader);
    *started = NULL;
    if (reader == NULL)
        return error_set(EXIT_OTHER, "cannot start the reader: out of memory");
    reader->request = *request;
    int result = batch_queue_init(&reader->queue, request->queue_capacity);
    if (result != EXIT_OK) {
        free(reader);
        return result;
    }
    sem_init(&reader->started, 0, 0);
    /* Stop signals go to the sending thread, which ends the reader. */
    sigset_t stops, previous;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stops, &previous);
    int created = threads_start(&reader->thread, reader_main, reader);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (created != 0) {
        batch_queue_destroy(&reader->queue);
        sem_destroy(&reader->started);
        free(reader);
        return error_set(EXIT_OTHER, "cannot start the reader thread: %s", strerror(created));
    }
    while (sem_wait(&reader->started) != 0 && errno == EINTR)
        continue;
    if (reader->start_result != EXIT_OK) {
        result = error_set(reader->start_result, "%s", reader->start_message);
        batch_reader_stop(reader);
        return result;
    }
    *facts = reader->facts;
    *started = reader;
    return EXIT_OK;
}

struct batch_queue *batch_reader_queue(struct batch_reader *reader)
{
    return &reader->queue;
}

void batch_reader_stop(struct batch_reader *reader)
{
    if (reader == NULL)
        return;
    batch_queue_cancel(&reader->queue);
    pthread_join(reader->thread, NULL);
    batch_queue_destroy(&reader->queue);
    sem_destroy(&reader->started);
    free(reader);
}
