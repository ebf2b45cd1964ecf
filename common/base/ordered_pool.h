/* Runs jobs on worker threads and hands them back in the order they were submitted. */
#ifndef FUEL_ORDERED_POOL_H
#define FUEL_ORDERED_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct ordered_pool;

/* The work done on each job, in any thread: an exit code, error_set on failure. */
typedef int (*ordered_pool_work)(void *job);

/* A pool of THREADS workers (1 or less: no thread, WORK runs inside ordered_pool_submit) that
   holds at most DEPTH jobs submitted and not yet collected; the workers run 10 nicer than the
   caller, who submits and collects. EXIT_OTHER when threads cannot start. */
int ordered_pool_create(struct ordered_pool **pool, unsigned threads, size_t depth,
                        ordered_pool_work work);

/* As ordered_pool_create, but THREADS counts the caller: THREADS - 1 workers, and the caller runs
   jobs not yet started while the oldest it collects is under way (no more threads than cores
   contend when the caller's own work is light). */
int ordered_pool_create_shared(struct ordered_pool **pool, unsigned threads, size_t depth,
                               ordered_pool_work work);

/* As ordered_pool_create_shared, the workers at the caller's priority: for a caller that waits
   for each job in turn while its own work is light (reading the next block), so that other
   processes on a busy machine do not starve, 10 nicer, the job it waits for. */
int ordered_pool_create_peers(struct ordered_pool **pool, unsigned threads, size_t depth,
                              ordered_pool_work work);

/* The jobs submitted and not yet collected. */
size_t ordered_pool_pending(const struct ordered_pool *pool);

/* Whether DEPTH jobs are pending: collect one before submitting another. */
bool ordered_pool_full(const struct ordered_pool *pool);

/* Queues JOB (the pool must not be full); the caller keeps JOB untouched until it is collected. */
void ordered_pool_submit(struct ordered_pool *pool, void *job);

/* Waits for the oldest pending job (there must be one), sets *JOB to it and returns its work's
   result; on failure the work's error message is set again in the calling thread. */
int ordered_pool_collect(struct ordered_pool *pool, void **job);

/* Waits for the jobs under way, drops those not started, stops the workers and frees POOL. */
void ordered_pool_destroy(struct ordered_pool *pool);

#endif
