/* Copies a transfer's body into a ring buffer that a writer thread and a hasher thread drain. */
#include "body_pipeline.h"

#include "common/base/error.h"
#include "common/base/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    RING_SIZE = 4 << 20,
    CHUNK = 512 << 10,          /* the most a thread takes from the ring at once */
    WAKE_AMOUNT = 256 << 10,    /* a sleeping thread is woken when this much waits for it */
    WRITE_DELAY_NANOSECONDS = 50 * 1000 * 1000, /* the longest a byte waits for the writer */
    READ_BLOCK = 1 << 20,
    WRITEBACK_STRETCH = 4 << 20,
};

struct body_pipeline;

struct consumer {
    struct body_pipeline *pipeline;
    int (*consume)(struct body_pipeline *pipeline, const unsigned char *data, size_t length);
    pthread_t thread;
    pthread_cond_t readable;
    uint64_t position;          /* bytes of the body this thread is done with */
    bool drains_when_cancelled; /* the writer: keeps every byte fed, for a later resume */
    bool waiting;
    int error;                  /* errno of its failure, 0 otherwise */
};

struct body_pipeline {
    pthread_mutex_t mutex;
    pthread_cond_t writable;
    unsigned char *ring;
    uint64_t filled;            /* bytes of the body fed */
    bool closing, cancelled;
    int failure;                /* errno of the first failure of either thread */
    struct consumer writer, hasher;
    int descriptor;
    const char *path;
    uint64_t kept;              /* bytes of the file before the body */
    uint64_t flushed;           /* bytes of the file whose write-back was started */
    struct hash *hash;
};

static int write_fully(int descriptor, const unsigned char *data, size_t length, uint64_t offset)
{
    for (size_t done = 0; done < length;) {
        ssize_t wrote = pwrite(descriptor, data + done, length - done, (off_t)(offset + done));
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote < 0)
            return errno;
        done += (size_t)wrote;
    }
    return 0;
}

/* Writes a block after the kept prefix, and starts the write-back of each completed stretch so
   the fsync before the rename does not wait for the whole file. */
static int pipeline_write(struct body_pipeline *pipeline, const unsigned char *data, size_t length)
{
    uint64_t offset = pipeline->kept + pipeline->writer.position;
    int failure = write_fully(pipeline->descriptor, data, length, offset);
    uint64_t end = offset + length;
    if (failure == 0 && end - pipeline->flushed >= WRITEBACK_STRETCH) {
        sync_file_range(pipeline->descriptor, (off_t)pipeline->flushed,
                        (off_t)(end - pipeline->flushed), SYNC_FILE_RANGE_WRITE);
        pipeline->flushed = end;
    }
    return failure;
}

static int pipeline_hash(struct body_pipeline *pipeline, const unsigned char *data, size_t length)
{
    hash_update(pipeline->hash, data, length);
    return 0;
}

/* Hashes the resumed prefix from the file before the body's first byte. */
static int pipeline_hash_prefix(struct body_pipeline *pipeline)
{
    if (pipeline->kept == 0)
        return 0;
    unsigned char *buffer = malloc(READ_BLOCK);
    if (buffer == NULL)
        return ENOMEM;
    int failure = 0;
    for (uint64_t done = 0; done < pipeline->kept && failure == 0;) {
        uint64_t left = pipeline->kept - done;
        ssize_t count = pread(pipeline->descriptor, buffer, left < READ_BLOCK ? left : READ_BLOCK,
                              (off_t)done);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            failure = count < 0 ? errno : EIO;
        else {
            hash_update(pipeline->hash, buffer, (size_t)count);
            done += (uint64_t)count;
        }
    }
    free(buffer);
    return failure;
}

/* Called with the mutex held: sleeps until woken; the writer also wakes after a short delay,
   so that a slow transfer's bytes reach the .part soon. Returns whether the delay passed. */
static bool consumer_sleep(struct consumer *consumer)
{
    struct body_pipeline *pipeline = consumer->pipeline;
    consumer->waiting = true;
    bool delayed = false;
    if (consumer->drains_when_cancelled) {
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_nsec += WRITE_DELAY_NANOSECONDS;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
        delayed = pthread_cond_timedwait(&consumer->readable, &pipeline->mutex, &deadline) ==
                  ETIMEDOUT;
    } else {
        pthread_cond_wait(&consumer->readable, &pipeline->mutex);
    }
    consumer->waiting = false;
    return delayed;
}

/* Called with the mutex held: waits for a block or the end; returns the block's length, 0 at
   the end. */
static size_t consumer_wait(struct consumer *consumer)
{
    struct body_pipeline *pipeline = consumer->pipeline;
    bool delayed = false;
    while (pipeline->filled - consumer->position < WAKE_AMOUNT &&
           !(delayed && pipeline->filled > consumer->position) && !pipeline->closing &&
           !pipeline->cancelled && pipeline->failure == 0)
        delayed = consumer_sleep(consumer);
    if (pipeline->failure != 0 || (pipeline->cancelled && !consumer->drains_when_cancelled))
        return 0;
    uint64_t waiting = pipeline->filled - consumer->position;
    size_t offset = (size_t)(consumer->position % RING_SIZE);
    size_t length = waiting < CHUNK ? (size_t)waiting : CHUNK;
    return length < RING_SIZE - offset ? length : RING_SIZE - offset;
}

static void pipeline_fail(struct body_pipeline *pipeline, struct consumer *consumer, int failure)
{
    consumer->error = failure;
    if (pipeline->failure == 0)
        pipeline->failure = failure;
    pthread_cond_signal(&pipeline->writable);
    pthread_cond_signal(&pipeline->writer.readable);
    pthread_cond_signal(&pipeline->hasher.readable);
}

static void *consumer_run(void *argument)
{
    struct consumer *consumer = argument;
    struct body_pipeline *pipeline = consumer->pipeline;
    pthread_mutex_lock(&pipeline->mutex);
    size_t length;
    while ((length = consumer_wait(consumer)) > 0) {
        const unsigned char *data = pipeline->ring + consumer->position % RING_SIZE;
        pthread_mutex_unlock(&pipeline->mutex);
        int failure = consumer->consume(pipeline, data, length);
        pthread_mutex_lock(&pipeline->mutex);
        if (failure != 0) {
            pipeline_fail(pipeline, consumer, failure);
            break;
        }
        consumer->position += length;
        pthread_cond_signal(&pipeline->writable);
    }
    pthread_mutex_unlock(&pipeline->mutex);
    return NULL;
}

static void *hasher_run(void *argument)
{
    struct consumer *consumer = argument;
    struct body_pipeline *pipeline = consumer->pipeline;
    int failure = pipeline_hash_prefix(pipeline);
    if (failure == 0)
        return consumer_run(argument);
    pthread_mutex_lock(&pipeline->mutex);
    pipeline_fail(pipeline, consumer, failure);
    pthread_mutex_unlock(&pipeline->mutex);
    return NULL;
}

static void pipeline_free(struct body_pipeline *pipeline)
{
    pthread_cond_destroy(&pipeline->writer.readable);
    pthread_cond_destroy(&pipeline->hasher.readable);
    pthread_cond_destroy(&pipeline->writable);
    pthread_mutex_destroy(&pipeline->mutex);
    hash_discard(pipeline->hash);
    free(pipeline->ring);
    free(pipeline);
}

/* Stops the threads started so far (the writer alone when the hasher could not start). */
static void pipeline_stop(struct body_pipeline *pipeline, bool cancel, bool hasher_started)
{
    pthread_mutex_lock(&pipeline->mutex);
    pipeline->closing = true;
    pipeline->cancelled = cancel;
    pthread_cond_signal(&pipeline->writer.readable);
    pthread_cond_signal(&pipeline->hasher.readable);
    pthread_mutex_unlock(&pipeline->mutex);
    pthread_join(pipeline->writer.thread, NULL);
    if (hasher_started)
        pthread_join(pipeline->hasher.thread, NULL);
}

static void consumer_init(struct consumer *consumer, struct body_pipeline *pipeline,
                          int (*consume)(struct body_pipeline *, const unsigned char *, size_t))
{
    consumer->pipeline = pipeline;
    consumer->consume = consume;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&consumer->readable, &attributes);
    pthread_condattr_destroy(&attributes);
}

int body_pipeline_start(struct body_pipeline **result, int descriptor, const char *path,
                        uint64_t kept, enum hash_algorithm algorithm)
{
    struct body_pipeline *pipeline = calloc(1, sizeof *pipeline);
    if (pipeline == NULL || (pipeline->ring = malloc(RING_SIZE)) == NULL) {
        free(pipeline);
        return error_set(EXIT_OTHER, "cannot download: %s: out of memory", path);
    }
    pipeline->descriptor = descriptor;
    pipeline->path = path;
    pipeline->kept = kept;
    pipeline->flushed = kept;
    pthread_mutex_init(&pipeline->mutex, NULL);
    pthread_cond_init(&pipeline->writable, NULL);
    consumer_init(&pipeline->writer, pipeline, pipeline_write);
    pipeline->writer.drains_when_cancelled = true;
    consumer_init(&pipeline->hasher, pipeline, pipeline_hash);
    int status = hash_begin(&pipeline->hash, algorithm);
    if (status != EXIT_OK) {
        pipeline_free(pipeline);
        return status;
    }
    if (threads_start(&pipeline->writer.thread, consumer_run, &pipeline->writer) != 0) {
        pipeline_free(pipeline);
        return error_set(EXIT_OTHER, "cannot download: %s: no thread", path);
    }
    if (threads_start(&pipeline->hasher.thread, hasher_run, &pipeline->hasher) != 0) {
        pipeline_stop(pipeline, true, false);
        pipeline_free(pipeline);
        return error_set(EXIT_OTHER, "cannot download: %s: no thread", path);
    }
    *result = pipeline;
    return EXIT_OK;
}

static uint64_t oldest_position(const struct body_pipeline *pipeline)
{
    uint64_t written = pipeline->writer.position, hashed = pipeline->hasher.position;
    return written < hashed ? written : hashed;
}

/* Called with the mutex held: wakes a sleeping thread once enough waits for it. */
static void pipeline_wake(struct body_pipeline *pipeline, struct consumer *consumer)
{
    if (consumer->waiting && pipeline->filled - consumer->position >= WAKE_AMOUNT)
        pthread_cond_signal(&consumer->readable);
}

int body_pipeline_feed(struct body_pipeline *pipeline, const void *data, size_t length)
{
    const unsigned char *bytes = data;
    pthread_mutex_lock(&pipeline->mutex);
    while (length > 0 && pipeline->failure == 0) {
        uint64_t space = RING_SIZE - (pipeline->filled - oldest_position(pipeline));
        if (space == 0) {
            pthread_cond_wait(&pipeline->writable, &pipeline->mutex);
            continue;
        }
        size_t offset = (size_t)(pipeline->filled % RING_SIZE);
        size_t count = length < space ? length : (size_t)space;
        count = count < RING_SIZE - offset ? count : RING_SIZE - offset;
        /* The threads never read past `filled`, so this stretch is the feeder's alone. */
        pthread_mutex_unlock(&pipeline->mutex);
        memcpy(pipeline->ring + offset, bytes, count);
        pthread_mutex_lock(&pipeline->mutex);
        pipeline->filled += count;
        bytes += count;
        length -= count;
        pipeline_wake(pipeline, &pipeline->writer);
        pipeline_wake(pipeline, &pipeline->hasher);
    }
    int failure = pipeline->failure;
    pthread_mutex_unlock(&pipeline->mutex);
    return failure;
}

int body_pipeline_finish(struct body_pipeline *pipeline, char hex[HASH_HEX_SIZE])
{
    pipeline_stop(pipeline, false, true);
    int result = EXIT_OK;
    if (pipeline->writer.error != 0)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", pipeline->path,
                           strerror(pipeline->writer.error));
    else if (pipeline->hasher.error != 0)
        result = error_set(EXIT_OTHER, "cannot read back: %s: %s", pipeline->path,
                           strerror(pipeline->hasher.error));
    else {
        hash_finish(pipeline->hash, hex);
        pipeline->hash = NULL;
    }
    pipeline_free(pipeline);
    return result;
}

void body_pipeline_cancel(struct body_pipeline *pipeline)
{
    if (pipeline == NULL)
        return;
    pipeline_stop(pipeline, true, true);
    pipeline_free(pipeline);
}
