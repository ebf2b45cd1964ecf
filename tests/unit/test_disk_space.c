/* Unit tests of the space check before a write: free space from statvfs, the file size limit,
   sizes that saturate instead of wrapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

static void sizes_saturate(void **state)
{
    (void)state;
    assert_true(disk_space_product(1u << 20, 1u << 20) == (uint64_t)1 << 40);
    assert_true(disk_space_product(UINT64_MAX / 2, 3) == UINT64_MAX);
    assert_true(disk_space_product(0, UINT64_MAX) == 0);
    assert_true(disk_space_sum(UINT64_MAX - 1, 1) == UINT64_MAX);
    assert_true(disk_space_sum(UINT64_MAX - 1, 2) == UINT64_MAX);
    assert_true(disk_space_sum(40, 2) == 42);
}

static void what_fits_passes(void **state)
{
    (void)state;
    error_clear();
    assert_int_equal(disk_space_check(test_directory, "shown", 0, 0), EXIT_OK);
    assert_int_equal(disk_space_check(test_directory, "shown", 4096, 4096), EXIT_OK);
    assert_int_equal(error_code(), EXIT_OK);
}

/* More than any disk: refused, naming SHOWN, the need and what statvfs says is free. */
static void more_than_is_free_is_refused(void **state)
{
    (void)state;
    char path[300], expected[400];
    /* A directory not made yet is measured at its nearest parent. */
    test_path(path, sizeof path, test_directory, "not/yet/made");
    assert_int_equal(disk_space_check(path, "out/mnist", UINT64_MAX - 1, 0), EXIT_WRITE);
    struct statvfs space;
    assert_int_equal(statvfs(test_directory, &space), 0);
    snprintf(expected, sizeof expected, "cannot write: out/mnist: needs %" PRIu64 " bytes, ",
             UINT64_MAX - 1);
    assert_memory_equal(error_message(), expected, strlen(expected));
    uint64_t free_bytes = 0;
    assert_int_equal(sscanf(error_message() + strlen(expected), "%" SCNu64, &free_bytes), 1);
    uint64_t now = (uint64_t)space.f_bavail * space.f_frsize;
    assert_true(free_bytes + (64u << 20) > now && free_bytes < now + (64u << 20));
    snprintf(expected + strlen(expected), sizeof expected - strlen(expected),
             "%" PRIu64 " free", free_bytes);
    assert_string_equal(error_message(), expected);
}

static void the_file_size_limit_is_checked(void **state)
{
    (void)state;
    struct rlimit before, lower;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &before), 0);
    lower = before;
    lower.rlim_cur = 8192;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lower), 0);
    int at_limit = disk_space_check(test_directory, "out", 100000, 8192);
    int past_limit = disk_space_check(test_directory, "out", 100000, 8193);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &before), 0);
    assert_int_equal(at_limit, EXIT_OK);
    assert_int_equal(past_limit, EXIT_WRITE);
    assert_string_equal(error_message(), "cannot write: out: needs a file of 8193 bytes, over the "
                                         "file size limit of 8192 bytes (ulimit -f)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_saturate),
        cmocka_unit_test(what_fits_passes),
        cmocka_unit_test(more_than_is_free_is_refused),
        cmocka_unit_test(the_file_size_limit_is_checked),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
