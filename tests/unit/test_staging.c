/* Unit tests of staging directories, the one scheme of staged outputs: created locked, left alone
   while locked, removed once dead, lockless ones and things not directories removed only when
   empty or never, names matched and committed names read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/staging.h"
#include "support.h"

#include <errno.h>
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
    assert_int_equal(staging_create(staging, test_directory, "set"), EXIT_OK);
    assert_true(staging->lock >= 0);
    char prefix[4200];
    test_path(prefix, sizeof prefix, test_directory, ".fuel-staging-set.");
    assert_int_equal(strncmp(staging->path, prefix, strlen(prefix)), 0);
    assert_int_equal(strlen(staging->path), strlen(prefix) + 6);
    assert_true(staging_is_name_of(strrchr(staging->path, '/') + 1, "set"));
    assert_true(staging_is_name(strrchr(staging->path, '/') + 1));
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
    test_path(path, sizeof path, test_directory, ".fuel-staging-fixture.abc123");
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

/* What is named like a staging but is no directory is not ours: a file, a symbolic link. */
static void test_not_a_directory_kept(void **state)
{
    (void)state;
    char file[4096], link[4096];
    test_path(file, sizeof file, test_directory, ".fuel-staging-mnist.hdf5.a1B2c3");
    test_file_write(file, "not ours");
    test_path(link, sizeof link, test_directory, ".fuel-staging-link.hdf5.qwerty");
    assert_int_equal(symlink(test_directory, link), 0);
    bool removed = true;
    staging_remove_dead(file, false, &removed);
    assert_false(removed);
    staging_remove_dead(link, false, &removed);
    assert_false(removed);
    assert_true(exists(file));
    assert_true(exists(link));
    unlink(file);
    unlink(link);
}

/* A staging whose lock file cannot be opened for locking (here a directory): reported, kept. */
static void test_unlockable_staging_reported(void **state)
{
    (void)state;
    char path[4096], lock[4200];
    test_path(path, sizeof path, test_directory, ".fuel-staging-odd.hdf5.abcdef");
    assert_int_equal(mkdir(path, 0755), 0);
    test_path(lock, sizeof lock, path, ".lock");
    assert_int_equal(mkdir(lock, 0755), 0);
    bool removed = true;
    assert_int_equal(staging_remove_dead(path, false, &removed), EXIT_WRITE);
    assert_false(removed);
    char expected[4400];
    snprintf(expected, sizeof expected, "cannot clean: %s: cannot lock: Is a directory", path);
    assert_string_equal(error_message(), expected);
    error_clear();
    assert_true(exists(lock));
    rmdir(lock);
    rmdir(path);
}

/* A staging that cannot be made (its directory missing): EXIT_WRITE, errno telling why. */
static void test_create_failure(void **state)
{
    (void)state;
    char missing[4096];
    test_path(missing, sizeof missing, test_directory, "absent");
    struct staging staging;
    assert_int_equal(staging_create(&staging, missing, "x.hdf5"), EXIT_WRITE);
    assert_int_equal(errno, ENOENT);
    char expected[4300];
    snprintf(expected, sizeof expected, "cannot write in %s: No such file or directory", missing);
    assert_string_equal(error_message(), expected);
    error_clear();
    assert_int_equal(staging.path[0], '\0');
}

static void test_names(void **state)
{
    (void)state;
    static const char *const stagings[] = {
        ".fuel-staging-mnist.hdf5.a1B2c3", ".fuel-staging-fixture.ZZZZZZ",
        ".fuel-staging-mnist_train.000000", ".fuel-staging-x.publishing",
        ".fuel-staging-mnist_train.publishing"};
    static const char *const others[] = {
        ".fuel-staging-.a1B2c3", ".fuel-staging-.publishing", ".fuel-staging-mnist.hdf5.a1B2c",
        ".fuel-staging-mnist.hdf5.a1B2c34", ".fuel-staging-mnist.hdf5.a1B-c3",
        "fuel-staging-mnist.hdf5.a1B2c3", ".mnist.hdf5.a1B2c3", ".fuel-fixture.a1B2c3",
        ".mnist_train.publishing", ".fuel-staging-x.publishingX", "mnist.hdf5.part"};
    for (size_t index = 0; index < sizeof stagings / sizeof *stagings; index++)
        if (!staging_is_name(stagings[index]))
            fail_msg("%s not recognised", stagings[index]);
    for (size_t index = 0; index < sizeof others / sizeof *others; index++)
        if (staging_is_name(others[index]))
            fail_msg("%s taken for a staging", others[index]);
    assert_true(staging_is_name_of(".fuel-staging-mnist.hdf5.a1B2c3", "mnist.hdf5"));
    assert_false(staging_is_name_of(".fuel-staging-mnist.hdf5.a1B2c3", "mnist"));
    assert_false(staging_is_name_of(".fuel-staging-mnist_float32.hdf5.a1B2c3", "mnist.hdf5"));
    assert_false(staging_is_name_of(".fuel-staging-mnist.publishing", "mnist"));
}

static void test_committed_names(void **state)
{
    (void)state;
    char what[16], path[64];
    assert_true(staging_committed_what(".fuel-staging-mnist_train.publishing", what, sizeof what));
    assert_string_equal(what, "mnist_train");
    assert_false(staging_committed_what(".fuel-staging-mnist_train.a1B2c3", what, sizeof what));
    assert_false(staging_committed_what(".mnist_train.publishing", what, sizeof what));
    assert_false(staging_committed_what(".fuel-staging-a_label_too_long_for_it.publishing", what,
                                        sizeof what));
    assert_int_equal(staging_committed_path("/out", "mnist_train", path, sizeof path), EXIT_OK);
    assert_string_equal(path, "/out/.fuel-staging-mnist_train.publishing");
    assert_int_equal(staging_committed_path("/out", "a_label_far_too_long_for_the_path_given", path,
                                            sizeof path),
                     EXIT_WRITE);
    error_clear();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_staging_kept),
        cmocka_unit_test(test_dead_staging_removed),
        cmocka_unit_test(test_lockless_staging),
        cmocka_unit_test(test_not_a_directory_kept),
        cmocka_unit_test(test_unlockable_staging_reported),
        cmocka_unit_test(test_create_failure),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_committed_names),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
