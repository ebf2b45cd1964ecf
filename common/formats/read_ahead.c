/* Fills rotating blocks from a stream in a thread, ahead of the caller that consumes them. */
#include "read_ahead.h"

#include "common/base/error.h"
#include "common/base/threads.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK_COUNT = 3, MESSAGE_SIZE = 1024 };

struct read_ahead {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    read_ahead_fill fill;
    read_ahead_fill_stream fill_stream; /* instead of FILL when the length is unknown */
    size_t lengths[BLOCK_COUNT];        /* with FILL_STREAM: each slot's length */
    void *source;
    size_t block_size;
    uint64_t total;
    uint64_t block_total;
    unsigned char *blocks;      /* BLOCK_COUNT blocks of block_size bytes */
    uint64_t filled;            /* blocks filled by the thread */
    uint64_t taken;             /* blocks handed out; all but the last were given back */
    bool stopping;
    bool failed;
    int status;                 /* the fill's failure */
    char message[MESSAGE_SIZE];
};

static unsigned char *block_address(const struct read_ahead *ahead, uint64_t index)
{
    return ahead->blocks + (size_t)(index % BLOCK_COUNT) * ahead->block_size;
}

static size_t block_length(const struct read_ahead *ahead, uint64_t index)
{
    if (ahead->fill_stream != NULL)
        return ahead->lengths[index % BLOCK_COUNT];
    uint64_t left = ahead->total - index * ahead->block_size;
    return left < ahead->block_size ? (size_t)left : ahead->block_size;
}

static uint64_t given_back(const struct read_ahead *ahead)
{
    return ahead->taken > 0 ? ahead->taken - 1 : 0;
}

/* Called with the mutex held: waits until block INDEX's slot is free; false when stopping. */
static bool slot_wait(struct read_ahead *ahead, uint64_t index)
{
    while (!ahead->stopping && index >= given_back(ahead) + BLOCK_COUNT)
        pthread_cond_wait(&ahead->changed, &ahead->mutex);
    return !ahead->stopping;
}

static void *read_ahead_run(void *argument)
{
    struct read_ahead *ahead = argument;
    pthread_mutex_lock(&ahead->mutex);
    for (uint64_t index = 0; index < ahead->block_total && slot_wait(ahead, index); index++) {
        pthread_mutex_unlock(&ahead->mutex);
        size_t filled = 0;
        int status = ahead->fill_stream != NULL
                         ? ahead->fill_stream(ahead->source, block_address(ahead, index),
                                              ahead->block_size, &filled)
                         : ahead->fill(ahead->source, block_address(ahead, index),
                                       block_length(ahead, index));
        pthread_mutex_lock(&ahead->mutex);
        if (ahead->fill_stream != NULL) {
            ahead->lengths[index % BLOCK_COUNT] = filled;
            if (status == EXIT_OK && filled < ahead->block_size)
                ahead->block_total = index + 1;
            if (status != EXIT_OK && filled > 0)
                ahead->filled++; /* the bytes before the failure are handed out first */
        }
        if (status != EXIT_OK) {
            ahead->failed = true;
            ahead->status = status;
            snprintf(ahead->message, sizeof ahead->message, "%s", error_message());
            pthread_cond_broadcast(&ahead->changed);
            break;
        }
        ahead->filled++;
        pthread_cond_broadcast(&ahead->changed);
    }
    pthread_mutex_unlock(&ahead->mutex);
    return NULL;
}

static int start(struct read_ahead **result, struct read_ahead *ahead, size_t block_size)
{
    if (ahead == NULL || block_size == 0 ||
        (ahead->blocks = malloc(BLOCK_COUNT * block_size)) == NULL) {
        free(ahead);
        return error_set(EXIT_OTHER, "cannot read ahead: out of memory");
    }
    ahead->block_size = block_size;
    pthread_mutex_init(&ahead->mutex, NULL);
    pthread_cond_init(&ahead->changed, NULL);
    if (threads_start(&ahead->thread, read_ahead_run, ahead) != 0) {
        pthread_cond_destroy(&ahead->changed);
        pthread_mutex_destroy(&ahead->mutex);
        free(ahead->blocks);
        free(ahead);
        return error_set(EXIT_OTHER, "cannot read ahead: no thread");
    }
    *result = ahead;
    return EXIT_OK;
}

int read_ahead_start(struct read_ahead **result, read_ahead_fill fill, void *source,
                     size_t block_size, uint64_t total)
{
    struct read_ahead *ahead = calloc(1, sizeof *ahead);
    if (ahead != NULL) {
        ahead->fill = fill;
        ahead->source = source;
        ahead->total = total;
        ahead->block_total = block_size > 0 ? total / block_size + (total % block_size != 0) : 0;
    }
    return start(result, ahead, block_size);
}

int read_ahead_start_stream(struct read_ahead **result, read_ahead_fill_stream fill, void *source,
                            size_t block_size)
{
    struct read_ahead *ahead = calloc(1, sizeof *ahead);
    if (ahead != NULL) {
        ahead->fill_stream = fill;
        ahead->source = source;
        ahead->total = UINT64_MAX;
        ahead->block_total = UINT64_MAX;
    }
    return start(result, ahead, block_size);
}

int read_ahead_next(struct read_ahead *ahead, const unsigned char **block, size_t *size)
{
    pthread_mutex_lock(&ahead->mutex);
    if (ahead->taken >= ahead->block_total) {
        pthread_mutex_unlock(&ahead->mutex);
        *size = 0;
        if (ahead->fill_stream != NULL)
            return EXIT_OK;
        return error_set(EXIT_OTHER, "cannot read ahead: reading past the end");
    }
    ahead->taken++;   /* gives back the block handed out before */
    pthread_cond_broadcast(&ahead->changed);
    uint64_t index = ahead->taken - 1;
    while (ahead->filled <= index && !ahead->failed)
        pthread_cond_wait(&ahead->changed, &ahead->mutex);
    bool ready = ahead->filled > index;
    pthread_mutex_unlock(&ahead->mutex);
    if (!ready)
        return error_set(ahead->status, "%s", ahead->message);
    *block = block_address(ahead, index);
    *size = block_length(ahead, index);
    return EXIT_OK;
}

void read_ahead_end(struct read_ahead *ahead)
{
    if (ahead == NULL)
        return;
    pthread_mutex_lock(&ahead->mutex);
    ahead->stopping = true;
    pthread_cond_broadcast(&ahead->changed);
    pthread_mutex_unlock(&ahead->mutex);
    pthread_join(ahead->thread, NULL);
    pthread_cond_destroy(&ahead->changed);
    pthread_mutex_destroy(&ahead->mutex);
    free(ahead->blocks);
    free(ahead);
}
