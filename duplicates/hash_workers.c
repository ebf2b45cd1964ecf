/* A ring of hashing jobs on an ordered pool (hash_workers.h): each job owns its JPEG decoder's
   buffers, and the bytes in flight are bounded by HASH_WORKERS_BUDGET. */
#include "hash_workers.h"

#include "common/base/error.h"
#include "common/base/ordered_pool.h"
#include "common/base/threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JOBS_PER_THREAD = 4 };

struct hash_job {
    const struct image_layout *layout;
    const uint8_t *data;
    size_t size;
    bool owned;
    uint64_t shape[3];
    struct example_place place;
    struct jpeg_image image;
    struct perceptual_hash hash;
};

struct hash_workers {
    struct ordered_pool *pool;
    struct hash_job *jobs;
    size_t job_count, next_job;
    size_t in_flight;
    const struct image_layout *layout;
    struct hash_receiver receiver;
};

static int hash_job_run(void *argument)
{
    struct hash_job *job = argument;
    if (!job->layout->encoded)
        return image_hash_pixels(job->layout, job->data, job->shape, &job->hash);
    char name[256];
    snprintf(name, sizeof name, "%s: %s example %llu", job->place.path, job->place.source,
             (unsigned long long)job->place.index);
    return image_hash_encoded(job->data, job->size, name, &job->image, &job->hash);
}

int hash_workers_begin(struct hash_workers **workers, const struct image_layout *layout,
                       unsigned threads, const struct hash_receiver *receiver)
{
    threads = threads == 0 ? threads_default() : threads;
    struct hash_workers *made = calloc(1, sizeof *made);
    size_t jobs = (size_t)threads * JOBS_PER_THREAD;
    if (made != NULL)
        made->jobs = calloc(jobs, sizeof *made->jobs);
    *workers = made;
    if (made == NULL || made->jobs == NULL)
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    made->job_count = jobs;
    made->layout = layout;
    made->receiver = *receiver;
    return ordered_pool_create_shared(&made->pool, threads, jobs, hash_job_run);
}

static void job_release(struct hash_workers *workers, struct hash_job *job)
{
    workers->in_flight -= job->size;
    if (job->owned)
        free((void *)job->data);
    job->data = NULL;
    job->owned = false;
}

static int collect_oldest(struct hash_workers *workers)
{
    void *argument;
    int result = ordered_pool_collect(workers->pool, &argument);
    struct hash_job *job = argument;
    job_release(workers, job);
    if (result == EXIT_OK)
        result = workers->receiver.receive(workers->receiver.context, &job->place, &job->hash);
    return result;
}

int hash_workers_add(struct hash_workers *workers, const uint8_t *data, size_t size, bool owned,
                     const uint64_t *shape, const struct example_place *place)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(workers->pool) > 0 &&
           (ordered_pool_full(workers->pool) || workers->in_flight + size > HASH_WORKERS_BUDGET))
        result = collect_oldest(workers);
    if (result != EXIT_OK) {
        if (owned)
            free((void *)data);
        return result;
    }
    struct hash_job *job = &workers->jobs[workers->next_job];
    job->layout = workers->layout;
    job->data = data;
    job->size = size;
    job->owned = owned;
    for (int axis = 0; axis < 3; axis++)
        job->shape[axis] = shape != NULL && axis < workers->layout->example_rank ? shape[axis] : 0;
    job->place = *place;
    workers->in_flight += size;
    ordered_pool_submit(workers->pool, job);
    workers->next_job = (workers->next_job + 1) % workers->job_count;
    return EXIT_OK;
}

int hash_workers_finish(struct hash_workers *workers)
{
    int result = EXIT_OK;
    while (result == EXIT_OK && ordered_pool_pending(workers->pool) > 0)
        result = collect_oldest(workers);
    return result;
}

void hash_workers_free(struct hash_workers *workers)
{
    if (workers == NULL)
        return;
    ordered_pool_destroy(workers->pool);
    for (size_t job = 0; workers->jobs != NULL && job < workers->job_count; job++) {
        if (workers->jobs[job].owned)
            free((void *)workers->jobs[job].data);
        jpeg_image_free(&workers->jobs[job].image);
    }
    free(workers->jobs);
    free(workers);
}
