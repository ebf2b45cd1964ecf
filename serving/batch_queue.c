/* A ring of batch pointers under one mutex and one condition variable, bounded by its capacity. */
#include "batch_queue.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void served_batch_free(struct served_batch *batch)
{
    if (batch == NULL)
        return;
    for (size_t index = 0; index < batch->array_count; index++)
        buffer_pool_give(batch->pools[index], batch->arrays[index]);
    free(batch->header);
    free(batch);
}

int batch_queue_init(struct batch_queue *queue, size_t capacity)
{
    *queue = (struct batch_queue){.capacity = capacity > 0 ? capacity : 1};
    queue->items = calloc(queue->capacity, sizeof *queue->items);
    if (queue->items == NULL)
        return error_set(EXIT_OTHER, "cannot queue batches: out of memory");
    pthread_mutex_init(&queue->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&queue->changed, &attributes);
    pthread_condattr_destroy(&attributes);
    return EXIT_OK;
}

void batch_queue_destroy(struct batch_queue *queue)
{
    if (queue->items == NULL)
        return;
    for (size_t index = 0; index < queue->count; index++)
        served_batch_free(queue->items[(queue->first + index) % queue->capacity]);
    free(queue->items);
    queue->items = NULL;
    pthread_cond_destroy(&queue->changed);
    pthread_mutex_destroy(&queue->lock);
}

bool batch_queue_put(struct batch_queue *queue, struct served_batch *batch)
{
    pthread_mutex_lock(&queue->lock);
    while (queue->count == queue->capacity && !queue->cancelled)
        pthread_cond_wait(&queue->changed, &queue->lock);
    bool accepted = !queue->cancelled;
    if (accepted) {
        queue->items[(queue->first + queue->count) % queue->capacity] = batch;
        queue->count++;
        pthread_cond_broadcast(&queue->changed);
    }
    pthread_mutex_unlock(&queue->lock);
    if (!accepted)
        served_batch_free(batch);
    return accepted;
}

void batch_queue_finish(struct batch_queue *queue, int failure, const char *message)
{
    pthread_mutex_lock(&queue->lock);
    queue->finished = true;
    queue->failure = failure;
    snprintf(queue->message, sizeof queue->message, "%s", message != NULL ? message : "");
    pthread_cond_broadcast(&queue->changed);
    pthread_mutex_unlock(&queue->lock);
}

static struct timespec deadline_after(int milliseconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    return deadline;
}

enum queue_take batch_queue_take(struct batch_queue *queue, struct served_batch **batch,
                                 int timeout_ms)
{
    struct timespec deadline = deadline_after(timeout_ms);
    enum queue_take outcome = QUEUE_EMPTY;
    *batch = NULL;
    pthread_mutex_lock(&queue->lock);
    int waited = 0;
    while (queue->count == 0 && !queue->finished && waited != ETIMEDOUT)
        waited = pthread_cond_timedwait(&queue->changed, &queue->lock, &deadline);
    if (queue->count > 0) {
        *batch = queue->items[queue->first];
        queue->first = (queue->first + 1) % queue->capacity;
        queue->count--;
        pthread_cond_broadcast(&queue->changed);
        outcome = QUEUE_BATCH;
    } else if (queue->finished) {
        outcome = queue->failure == EXIT_OK ? QUEUE_FINISHED : QUEUE_FAILED;
    }
    pthread_mutex_unlock(&queue->lock);
    return outcome;
}

void batch_queue_cancel(struct batch_queue *queue)
{
    pthread_mutex_lock(&queue->lock);
    queue->cancelled = true;
    pthread_cond_broadcast(&queue->changed);
    pthread_mutex_unlock(&queue->lock);
}

void batch_queue_wait_cancel(struct batch_queue *queue)
{
    pthread_mutex_lock(&queue->lock);
    while (!queue->cancelled)
        pthread_cond_wait(&queue->changed, &queue->lock);
    pthread_mutex_unlock(&queue->lock);
}
