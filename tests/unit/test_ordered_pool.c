/* Unit tests for common/base/ordered_pool.c: jobs come back in submission order, whatever the
   thread count, with the failure of a job and its message; workers at a lower priority, but a
   pool of peers' at the caller's; a shared pool's collecting thread runs jobs while it waits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/resource.h>

#include "common/base/error.h"
#include "common/base/ordered_pool.h"

#include <stdint.h>
#include <time.h>

struct job {
    uint64_t input;
    uint64_t output;
};

/* Uneven work, so that later jobs often finish before earlier ones. */
static int square_slowly(void *argument)
{
    struct job *job = argument;
    struct timespec pause = {0, (long)(job->input % 7) * 200000};
    nanosleep(&pause, NULL);
    if (job->input == 1000003)
        return error_set(EXIT_CORRUPT_INPUT, "job %llu refused", (unsigned long long)job->input);
    job->output = job->input * job->input;
    return EXIT_OK;
}

typedef int (*pool_creator)(struct ordered_pool **pool, unsigned threads, size_t depth,
                            ordered_pool_work work);

/* Runs COUNT jobs through a pool CREATE makes of THREADS and DEPTH, collecting when full, then
   the rest. */
static void run_in_order(pool_creator create, unsigned threads, size_t depth, uint64_t count)
{
    struct ordered_pool *pool;
    assert_int_equal(create(&pool, threads, depth, square_slowly), EXIT_OK);
    struct job jobs[16];
    assert_true(depth <= 16);
    uint64_t next = 0, collected = 0;
    for (uint64_t index = 0; index < count; index++) {
        if (ordered_pool_full(pool)) {
            void *done;
            assert_int_equal(ordered_pool_collect(pool, &done), EXIT_OK);
            assert_int_equal(((struct job *)done)->output, collected * collected);
            collected++;
        }
        struct job *job = &jobs[next++ % depth];
        *job = (struct job){index, 0};
        ordered_pool_submit(pool, job);
    }
    while (ordered_pool_pending(pool) > 0) {
        void *done;
        assert_int_equal(ordered_pool_collect(pool, &done), EXIT_OK);
        assert_int_equal(((struct job *)done)->output, collected * collected);
        collected++;
    }
    assert_int_equal(collected, count);
    ordered_pool_destroy(pool);
}

static void test_one_thread_runs_inline(void **state)
{
    (void)state;
    run_in_order(ordered_pool_create, 1, 1, 50);
}

static void test_four_threads_give_jobs_back_in_order(void **state)
{
    (void)state;
    run_in_order(ordered_pool_create, 4, 16, 500);
    run_in_order(ordered_pool_create, 3, 5, 200);
}

static void test_shared_pools_give_jobs_back_in_order(void **state)
{
    (void)state;
    run_in_order(ordered_pool_create_shared, 1, 1, 50);
    run_in_order(ordered_pool_create_shared, 2, 16, 500);
    run_in_order(ordered_pool_create_shared, 4, 5, 200);
}

/* Collects two jobs from POOL: FIRST done, then SECOND refused with MESSAGE. */
static void collect_done_then_refused(struct ordered_pool *pool, void *first, void *second,
                                      const char *message)
{
    void *done = NULL;
    error_clear();
    assert_int_equal(ordered_pool_collect(pool, &done), EXIT_OK);
    assert_ptr_equal(done, first);
    assert_int_equal(ordered_pool_collect(pool, &done), EXIT_CORRUPT_INPUT);
    assert_ptr_equal(done, second);
    assert_string_equal(error_message(), message);
}

/* The jobs of the shared pool test: the first waits until the second is done, which only another
   thread can do; the second fails. Each notes whether the collecting thread ran it. */
static pthread_t collecting_thread;
static atomic_bool first_started, second_done;
static bool ran_in_collector[2];

/* Waits at most 5 s for FLAG; false when it never came. */
static bool wait_for(atomic_bool *flag)
{
    struct timespec pause = {0, 100000};
    for (int round = 0; round < 50000 && !atomic_load(flag); round++)
        nanosleep(&pause, NULL);
    return atomic_load(flag);
}

static int gated_job(void *argument)
{
    int index = *(int *)argument;
    ran_in_collector[index] = pthread_equal(pthread_self(), collecting_thread);
    if (index == 1) {
        atomic_store(&second_done, true);
        return error_set(EXIT_CORRUPT_INPUT, "second job refused");
    }
    atomic_store(&first_started, true);
    return wait_for(&second_done) ? EXIT_OK : error_set(EXIT_OTHER, "second job never ran");
}

static void test_the_collecting_thread_runs_jobs_while_it_waits(void **state)
{
    (void)state;
    collecting_thread = pthread_self();
    atomic_store(&first_started, false);
    atomic_store(&second_done, false);
    struct ordered_pool *pool = NULL;
    assert_int_equal(ordered_pool_create_shared(&pool, 2, 4, gated_job), EXIT_OK);
    int indexes[2] = {0, 1};
    ordered_pool_submit(pool, &indexes[0]);
    /* The one worker holds the first job until the second is done: only the collector is left. */
    assert_true(wait_for(&first_started));
    ordered_pool_submit(pool, &indexes[1]);
    collect_done_then_refused(pool, &indexes[0], &indexes[1], "second job refused");
    ordered_pool_destroy(pool);
    assert_false(ran_in_collector[0]);
    assert_true(ran_in_collector[1]);
}

static void test_a_failure_comes_back_with_its_message(void **state)
{
    (void)state;
    struct ordered_pool *pool;
    assert_int_equal(ordered_pool_create(&pool, 2, 4, square_slowly), EXIT_OK);
    struct job jobs[3] = {{5, 0}, {1000003, 0}, {6, 0}};
    for (int index = 0; index < 3; index++)
        ordered_pool_submit(pool, &jobs[index]);
    collect_done_then_refused(pool, &jobs[0], &jobs[1], "job 1000003 refused");
    assert_int_equal(error_code(), EXIT_CORRUPT_INPUT);
    /* Destroyed with a job pending: it is waited for or dropped, never run on freed memory. */
    ordered_pool_destroy(pool);
}

static int note_priority(void *argument)
{
    errno = 0;
    *(int *)argument = getpriority(PRIO_PROCESS, 0);
    return errno == 0 ? EXIT_OK : EXIT_OTHER;
}

/* Workers run 10 nicer than the thread that submits (at most 19); that thread keeps its own. */
static void test_workers_yield_to_the_submitting_thread(void **state)
{
    (void)state;
    errno = 0;
    int caller = getpriority(PRIO_PROCESS, 0);
    assert_int_equal(errno, 0);
    struct ordered_pool *pool = NULL;
    assert_int_equal(ordered_pool_create(&pool, 2, 2, note_priority), EXIT_OK);
    int seen[2] = {-100, -100};
    ordered_pool_submit(pool, &seen[0]);
    ordered_pool_submit(pool, &seen[1]);
    void *job = NULL;
    assert_int_equal(ordered_pool_collect(pool, &job), EXIT_OK);
    assert_int_equal(ordered_pool_collect(pool, &job), EXIT_OK);
    ordered_pool_destroy(pool);
    int expected = caller + 10 > 19 ? 19 : caller + 10;
    assert_int_equal(seen[0], expected);
    assert_int_equal(seen[1], expected);
    assert_int_equal(getpriority(PRIO_PROCESS, 0), caller);
}

/* note_priority after 10 ms, long enough for the workers to take jobs before the caller does. */
static int note_priority_slowly(void *argument)
{
    nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    return note_priority(argument);
}

/* A pool of peers: every job runs at the submitting thread's priority, on a worker or not. */
static void test_peers_keep_the_submitting_priority(void **state)
{
    (void)state;
    errno = 0;
    int caller = getpriority(PRIO_PROCESS, 0);
    assert_int_equal(errno, 0);
    struct ordered_pool *pool = NULL;
    assert_int_equal(ordered_pool_create_peers(&pool, 3, 4, note_priority_slowly), EXIT_OK);
    int seen[8];
    void *job = NULL;
    for (size_t index = 0; index < 8; index++) {
        seen[index] = -100;
        if (ordered_pool_full(pool))
            assert_int_equal(ordered_pool_collect(pool, &job), EXIT_OK);
        ordered_pool_submit(pool, &seen[index]);
    }
    while (ordered_pool_pending(pool) > 0)
        assert_int_equal(ordered_pool_collect(pool, &job), EXIT_OK);
    ordered_pool_destroy(pool);
    for (size_t index = 0; index < 8; index++)
        assert_int_equal(seen[index], caller);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread_runs_inline),
        cmocka_unit_test(test_four_threads_give_jobs_back_in_order),
        cmocka_unit_test(test_a_failure_comes_back_with_its_message),
        cmocka_unit_test(test_shared_pools_give_jobs_back_in_order),
        cmocka_unit_test(test_the_collecting_thread_runs_jobs_while_it_waits),
        cmocka_unit_test(test_workers_yield_to_the_submitting_thread),
        cmocka_unit_test(test_peers_keep_the_submitting_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
