/* Unit tests of the batch buffer pool: reuse, its bound, and release while buffers are out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "serving/buffer_pool.h"

#include <string.h>

static void test_the_last_buffer_given_back_is_taken_first(void **state)
{
    (void)state;
    struct buffer_pool *pool = buffer_pool_create(4096, 4);
    assert_non_null(pool);
    assert_int_equal(buffer_pool_size(pool), 4096);
    unsigned char *first = buffer_pool_take(pool), *second = buffer_pool_take(pool);
    assert_non_null(first);
    assert_non_null(second);
    assert_ptr_not_equal(first, second);
    memset(first, 1, 4096);
    memset(second, 2, 4096);
    buffer_pool_give(pool, first);
    buffer_pool_give(pool, second);
    unsigned char *again = buffer_pool_take(pool);
    assert_ptr_equal(again, second);
    assert_int_equal(again[4095], 2);
    assert_ptr_equal(buffer_pool_take(pool), first);
    buffer_pool_give(pool, first);
    buffer_pool_give(pool, second);
    buffer_pool_release(pool);
}

static void test_a_full_pool_frees_what_it_cannot_keep(void **state)
{
    (void)state;
    struct buffer_pool *pool = buffer_pool_create(64, 1);
    assert_non_null(pool);
    void *kept = buffer_pool_take(pool), *extra = buffer_pool_take(pool);
    buffer_pool_give(pool, kept);
    /* The pool holds one buffer already: this one is freed, so the next take is the kept one. */
    buffer_pool_give(pool, extra);
    assert_ptr_equal(buffer_pool_take(pool), kept);
    buffer_pool_give(pool, kept);
    buffer_pool_release(pool);
}

/* ZeroMQ may give arrays back after the reader is gone: the pool outlives its release until the
   last one (under make check-sanitize, an early free is a use after free, a missing one a leak). */
static void test_a_released_pool_lives_until_its_last_buffer_is_back(void **state)
{
    (void)state;
    struct buffer_pool *pool = buffer_pool_create(256, 2);
    assert_non_null(pool);
    unsigned char *first = buffer_pool_take(pool), *second = buffer_pool_take(pool);
    buffer_pool_give(pool, first);
    buffer_pool_release(pool);
    memset(second, 3, 256);
    buffer_pool_give(pool, second);
}

static void test_a_pool_without_room_keeps_nothing(void **state)
{
    (void)state;
    struct buffer_pool *pool = buffer_pool_create(0, 0);
    assert_non_null(pool);
    assert_int_equal(buffer_pool_size(pool), 1);
    void *buffer = buffer_pool_take(pool);
    assert_non_null(buffer);
    buffer_pool_give(pool, buffer);
    buffer_pool_release(pool);
    buffer_pool_release(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_last_buffer_given_back_is_taken_first),
        cmocka_unit_test(test_a_full_pool_frees_what_it_cannot_keep),
        cmocka_unit_test(test_a_released_pool_lives_until_its_last_buffer_is_back),
        cmocka_unit_test(test_a_pool_without_room_keeps_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
