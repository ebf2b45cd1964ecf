/* An ordered work pool: a ring of jobs that workers, and a shared pool's collector, run in turn. */
#include "ordered_pool.h"

#include "error.h"
#include "threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pool_entry {
    void *job;
    bool done;
    int result;
    char message[1024];
};

struct ordered_pool {
    ordered_pool_work work;
    struct pool_entry *ring;
    size_t depth;
    size_t oldest;    /* sequence number of the oldest pending job */
    size_t next_work; /* the next job a worker takes */
    size_t submitted; /* sequence number of the next job submitted */
    bool stopping;
    bool caller_works; /* the collecting thread runs jobs while its oldest is not done */
    bool workers_yield; /* the workers run 10 nicer than the caller */
    pthread_mutex_t lock;
    pthread_cond_t queued;
    pthread_cond_t finished;
    pthread_t *threads;
    unsigned thread_count;
};

static void run_entry(struct ordered_pool *pool, struct pool_entry *entry)
{
    error_clear();
    entry->result = pool->work(entry->job);
    if (entry->result != EXIT_OK)
        snprintf(entry->message, sizeof entry->message, "%s", error_message());
}

/* Runs the oldest job not yet started, the lock held before and after (released meanwhile). */
static void run_next(struct ordered_pool *pool)
{
    struct pool_entry *entry = &pool->ring[pool->next_work++ % pool->depth];
    pthread_mutex_unlock(&pool->lock);
    run_entry(pool, entry);
    pthread_mutex_lock(&pool->lock);
    entry->done = true;
}

static void *worker(void *argument)
{
    struct ordered_pool *pool = argument;
    if (pool->workers_yield)
        threads_yield_to_caller();
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->next_work == pool->submitted)
            pthread_cond_wait(&pool->queued, &pool->lock);
        if (pool->stopping)
            break;
        run_next(pool);
        pthread_cond_broadcast(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static int start_threads(struct ordered_pool *pool, unsigned threads)
{
    pool->threads = calloc(threads, sizeof *pool->threads);
    if (pool->threads == NULL)
        return error_set(EXIT_OTHER, "cannot start worker threads: out of memory");
    for (unsigned index = 0; index < threads; index++) {
        int number = threads_start(&pool->threads[index], worker, pool);
        if (number != 0)
            return error_set(EXIT_OTHER, "cannot start worker threads: %s", strerror(number));
        pool->thread_count++;
    }
    return EXIT_OK;
}

/* A pool of WORKERS threads; none: each job runs inside ordered_pool_submit. */
static int create_pool(struct ordered_pool **pool, unsigned workers, size_t depth,
                       ordered_pool_work work, bool caller_works, bool workers_yield)
{
    struct ordered_pool *created = calloc(1, sizeof *created);
    if (created == NULL || (created->ring = calloc(depth > 0 ? depth : 1,
                                                   sizeof *created->ring)) == NULL) {
        free(created);
        return error_set(EXIT_OTHER, "cannot start worker threads: out of memory");
    }
    created->work = work;
    created->depth = depth > 0 ? depth : 1;
    pthread_mutex_init(&created->lock, NULL);
    pthread_cond_init(&created->queued, NULL);
    pthread_cond_init(&created->finished, NULL);
    created->caller_works = caller_works && workers > 0;
    created->workers_yield = workers_yield;
    int result = workers > 0 ? start_threads(created, workers) : EXIT_OK;
    if (result != EXIT_OK) {
        ordered_pool_destroy(created);
        return result;
    }
    *pool = created;
    return EXIT_OK;
}

int ordered_pool_create(struct ordered_pool **pool, unsigned threads, size_t depth,
                        ordered_pool_work work)
{
    return create_pool(pool, threads > 1 ? threads : 0, depth, work, false, true);
}

int ordered_pool_create_shared(struct ordered_pool **pool, unsigned threads, size_t depth,
                               ordered_pool_work work)
{
    return create_pool(pool, threads > 1 ? threads - 1 : 0, depth, work, true, true);
}

int ordered_pool_create_peers(struct ordered_pool **pool, unsigned threads, size_t depth,
                              ordered_pool_work work)
{
    return create_pool(pool, threads > 1 ? threads - 1 : 0, depth, work, true, false);
}

size_t ordered_pool_pending(const struct ordered_pool *pool)
{
    return pool->submitted - pool->oldest;
}

bool ordered_pool_full(const struct ordered_pool *pool)
{
    return ordered_pool_pending(pool) >= pool->depth;
}

void ordered_pool_submit(struct ordered_pool *pool, void *job)
{
    struct pool_entry *entry = &pool->ring[pool->submitted % pool->depth];
    entry->job = job;
    entry->done = false;
    if (pool->thread_count == 0) {
        run_entry(pool, entry);
        entry->done = true;
        pool->submitted++;
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->submitted++;
    pthread_cond_signal(&pool->queued);
    pthread_mutex_unlock(&pool->lock);
}

int ordered_pool_collect(struct ordered_pool *pool, void **job)
{
    struct pool_entry *entry = &pool->ring[pool->oldest % pool->depth];
    pthread_mutex_lock(&pool->lock);
    while (!entry->done) {
        if (pool->caller_works && pool->next_work != pool->submitted)
            run_next(pool);
        else
            pthread_cond_wait(&pool->finished, &pool->lock);
    }
    pool->oldest++;
    pthread_mutex_unlock(&pool->lock);
    *job = entry->job;
    if (entry->result != EXIT_OK)
        error_set(entry->result, "%s", entry->message);
    return entry->result;
}

void ordered_pool_destroy(struct ordered_pool *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    /* Jobs not yet taken are dropped: a worker taking one now would find the pool gone. */
    pool->stopping = true;
    pthread_cond_broadcast(&pool->queued);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned index = 0; index < pool->thread_count; index++)
        pthread_join(pool->threads[index], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->queued);
    pthread_cond_destroy(&pool->finished);
    free(pool->threads);
    free(pool->ring);
    free(pool);
}
