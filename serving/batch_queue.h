/* The bounded queue between the reader thread, which prepares batches, and the sending thread. */
#ifndef FUEL_BATCH_QUEUE_H
#define FUEL_BATCH_QUEUE_H

#include "buffer_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SERVED_SOURCES_MAX 64

/* One message of Fuel's protocol: a batch (header and arrays) or the end of an epoch. */
struct served_batch {
    bool end_of_epoch;
    uint64_t epoch;    /* from 0 */
    uint64_t number;   /* of the batch in its epoch, from 0 */
    uint64_t examples;
    char *header;      /* the JSON header; NULL for the end of an epoch */
    size_t array_count;
    void *arrays[SERVED_SOURCES_MAX]; /* the sender may take them (set to NULL) */
    size_t sizes[SERVED_SOURCES_MAX];
    struct buffer_pool *pools[SERVED_SOURCES_MAX]; /* where each array goes back; NULL: free */
};

void served_batch_free(struct served_batch *batch);

enum queue_take {
    QUEUE_BATCH,    /* a batch was taken */
    QUEUE_EMPTY,    /* none yet: the wait timed out */
    QUEUE_FINISHED, /* the producer is done and every batch was taken */
    QUEUE_FAILED,   /* the producer failed and every batch before the failure was taken */
};

struct batch_queue {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct served_batch **items;
    size_t capacity, first, count;
    bool cancelled; /* the consumer is gone: the producer stops */
    bool finished;
    int failure;     /* an exit code, EXIT_OK while none */
    char message[2048];
};

/* A queue holding at most CAPACITY (>= 1) batches; EXIT_OTHER when out of memory. */
int batch_queue_init(struct batch_queue *queue, size_t capacity);

/* Frees the queue and the batches left in it. */
void batch_queue_destroy(struct batch_queue *queue);

/* Producer: waits for room and appends BATCH (the queue owns it from then on); false, with
   BATCH freed, once the consumer cancelled. */
bool batch_queue_put(struct batch_queue *queue, struct served_batch *batch);

/* Producer: no more batches; FAILURE (an exit code) and MESSAGE say why when not EXIT_OK. */
void batch_queue_finish(struct batch_queue *queue, int failure, const char *message);

/* Consumer: takes the oldest batch into *BATCH, waiting at most TIMEOUT_MS milliseconds. */
enum queue_take batch_queue_take(struct batch_queue *queue, struct served_batch **batch,
                                 int timeout_ms);

/* Producer: waits until the consumer cancels (so what it shares stays alive until then). */
void batch_queue_wait_cancel(struct batch_queue *queue);

/* Consumer: stop the producer (wakes it when it waits for room). */
void batch_queue_cancel(struct batch_queue *queue);

#endif
