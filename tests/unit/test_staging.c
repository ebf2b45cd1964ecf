/* Unit tests of staging directories: created locked, left alone while locked, removed once dead,
   lockless ones removed only when empty, names matched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/staging.h"
#include "support.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool exists(const char *path)
{
    struct stat status;
    return lstat(path, &status) == 0;
}

static void staging_make(struct staging *staging)
{
    char template[4096];
    test_path(template, sizeof template, test_directory, ".set.export.XXXXXX");
    assert_int_equal(staging_create(staging, template), EXIT_OK);
    assert_true(staging->lock >= 0);
    assert_true(staging_name_matches(strrchr(staging->path, '/') + 1, ".set.export."));
}

static void test_live_staging_kept(void **state)
{
    (void)state;
    struct staging staging;
    staging_make(&staging);
    char file[4200];
    test_path(file, sizeof file, staging.path, "part.h5");
    test_file_write(file, "data");
    /* Another open file description of the lock file cannot take the lock: a live owner. */
    assert_int_equal(staging_lock(staging.path, false), -1);
    bool removed = true;
    staging_remove_dead(staging.path, false, &removed);
    assert_false(removed);
    assert_true(exists(file));
    staging_remove(&staging);
    assert_false(exists(file));
    assert_int_equal(staging.path[0], '\0');
}

static void test_dead_staging_removed(void **state)
{
    (void)state;
    struct staging staging;
    staging_make(&staging);
    char directory[4200], file[4300];
    test_path(directory, sizeof directory, staging.path, "train");
    assert_int_equal(mkdir(directory, 0755), 0);
    test_path(file, sizeof file, directory, "0.png");
    test_file_write(file, "png");
    close(staging.lock); /* the owner dies: the kernel drops its lock */
    bool removed = false;
    staging_remove_dead(staging.path, true, &removed);
    assert_true(removed);
    assert_true(exists(file));
    staging_remove_dead(staging.path, false, &removed);
    assert_true(removed);
    assert_false(exists(staging.path));
}

static void test_lockless_staging(void **state)
{
    (void)state;
    char path[4096], file[4200];
    test_path(path, sizeof path, test_directory, ".fuel-fixture.abc123");
    assert_int_equal(mkdir(path, 0755), 0);
    test_path(file, sizeof file, path, "notes");
    test_file_write(file, "not ours");
    bool removed = true;
    staging_remove_dead(path, false, &removed);
    assert_false(removed);
    assert_true(exists(file));
    assert_int_equal(unlink(file), 0);
    staging_remove_dead(path, false, &removed);
    assert_true(removed);
    assert_false(exists(path));
}

static void test_names(void **state)
{
    (void)state;
    assert_true(staging_name_matches(".fuel-fixture.a1B2c3", ".fuel-fixture."));
    assert_false(staging_name_matches(".fuel-fixture.a1B2c", ".fuel-fixture."));
    assert_false(staging_name_matches(".fuel-fixture.a1B2c34", ".fuel-fixture."));
    assert_false(staging_name_matches(".fuel-fixture.a1B-c3", ".fuel-fixture."));
    assert_false(staging_name_matches("fuel-fixture.a1B2c3", ".fuel-fixture."));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_staging_kept),
        cmocka_unit_test(test_dead_staging_removed),
        cmocka_unit_test(test_lockless_staging),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
