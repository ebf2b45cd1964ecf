/* Unit tests for common/base/memory_budget.c: what fits beside what is taken, one request larger
   than the budget passes alone, and a taker waits until enough is given back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "common/base/error.h"
#include "common/base/memory_budget.h"

static void test_what_fits_beside_what_is_taken(void **state)
{
    (void)state;
    struct memory_budget budget;
    assert_int_equal(memory_budget_init(&budget, 100), EXIT_OK);
    assert_true(memory_budget_fits(&budget, 100));
    memory_budget_charge(&budget, 60);
    assert_true(memory_budget_fits(&budget, 40));
    assert_false(memory_budget_fits(&budget, 41));
    assert_false(memory_budget_fits(&budget, UINT64_MAX));
    memory_budget_give(&budget, 60);
    assert_int_equal(memory_budget_taken(&budget), 0);
    memory_budget_destroy(&budget);
}

static void test_a_request_larger_than_the_budget_passes_alone(void **state)
{
    (void)state;
    struct memory_budget budget;
    assert_int_equal(memory_budget_init(&budget, 100), EXIT_OK);
    assert_true(memory_budget_fits(&budget, 1000));
    memory_budget_take(&budget, 1000);
    assert_int_equal(memory_budget_taken(&budget), 1000);
    assert_false(memory_budget_fits(&budget, 1));
    memory_budget_give(&budget, 1000);
    assert_true(memory_budget_fits(&budget, 1));
    memory_budget_destroy(&budget);
}

struct taker {
    struct memory_budget *budget;
    atomic_bool done;
};

static void *take_seventy(void *argument)
{
    struct taker *taker = argument;
    memory_budget_take(taker->budget, 70);
    atomic_store(&taker->done, true);
    return NULL;
}

static void test_a_taker_waits_until_enough_is_given_back(void **state)
{
    (void)state;
    struct memory_budget budget;
    assert_int_equal(memory_budget_init(&budget, 100), EXIT_OK);
    memory_budget_take(&budget, 50);
    struct taker taker = {.budget = &budget};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, take_seventy, &taker), 0);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    assert_false(atomic_load(&taker.done));
    memory_budget_give(&budget, 50);
    pthread_join(thread, NULL);
    assert_true(atomic_load(&taker.done));
    assert_int_equal(memory_budget_taken(&budget), 70);
    memory_budget_give(&budget, 70);
    memory_budget_destroy(&budget);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_fits_beside_what_is_taken),
        cmocka_unit_test(test_a_request_larger_than_the_budget_passes_alone),
        cmocka_unit_test(test_a_taker_waits_until_enough_is_given_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
