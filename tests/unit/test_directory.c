/* Unit tests of download directories: nested creation, refusal over a file, the exclusive lock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/directory.h"
#include "common/base/error.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char base[] = "/tmp/fuel-test-directory-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return test_directory_create(base);
}

static int teardown(void **state)
{
    (void)state;
    return test_directory_remove(base);
}

static void test_create_nested(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/a/b/c", base);
    assert_int_equal(directory_create(path), EXIT_OK);
    struct stat status;
    assert_int_equal(stat(path, &status), 0);
    assert_true(S_ISDIR(status.st_mode));
    assert_int_equal(directory_create(path), EXIT_OK);
}

static void test_create_over_a_file_fails(void **state)
{
    (void)state;
    char file[256], path[300];
    snprintf(file, sizeof file, "%s/plain", base);
    fclose(fopen(file, "w"));
    snprintf(path, sizeof path, "%s/sub", file);
    assert_int_equal(directory_create(path), EXIT_WRITE);
    assert_non_null(strstr(error_message(), "not a directory"));
}

static void test_lock_is_exclusive(void **state)
{
    (void)state;
    int first, second;
    bool busy;
    assert_int_equal(directory_lock(base, false, &first, &busy), EXIT_OK);
    assert_false(busy);
    assert_true(first >= 0);
    assert_int_equal(directory_lock(base, false, &second, &busy), EXIT_OK);
    assert_true(busy);
    assert_int_equal(second, -1);
    directory_unlock(first, base, DIRECTORY_LOCK_NAME);
    assert_int_equal(directory_lock(base, false, &second, &busy), EXIT_OK);
    assert_false(busy);
    char lock_path[256];
    snprintf(lock_path, sizeof lock_path, "%s/%s", base, DIRECTORY_LOCK_NAME);
    assert_int_equal(access(lock_path, F_OK), 0);
    directory_unlock(second, base, DIRECTORY_LOCK_NAME);
    /* The lock file fuel made is gone once released. */
    assert_int_not_equal(access(lock_path, F_OK), 0);
}

static void test_lock_in_missing_directory_fails(void **state)
{
    (void)state;
    int descriptor;
    bool busy;
    assert_int_equal(directory_lock("/nonexistent/dir", true, &descriptor, &busy), EXIT_WRITE);
    assert_string_equal(error_message(), "cannot write in /nonexistent/dir: No such file or directory");
}

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* A free lock is taken at once and nothing is said; a held one is waited for, said once. */
static void test_lock_waiting(void **state)
{
    (void)state;
    char said[256], text[256];
    snprintf(said, sizeof said, "%s/said", base);
    int descriptor, held[2];
    assert_int_equal(pipe(held), 0);
    pid_t holder = fork();
    if (holder == 0) {
        /* Holds the lock 300 ms, then releases it, removing the file the parent waits on. */
        bool child_busy;
        if (directory_lock(base, true, &descriptor, &child_busy) != EXIT_OK)
            _exit(1);
        close(held[0]);
        close(held[1]);
        usleep(300000);
        directory_unlock(descriptor, base, DIRECTORY_LOCK_NAME);
        _exit(0);
    }
    close(held[1]);
    char ignored;
    assert_int_equal(read(held[0], &ignored, 1), 0); /* the child holds the lock */
    close(held[0]);
    int other;
    bool busy;
    assert_int_equal(directory_lock(base, false, &other, &busy), EXIT_OK);
    assert_true(busy);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(freopen(said, "w", stderr) != NULL);
    double start = seconds_now();
    assert_int_equal(directory_lock_waiting(base, "waiting here", &descriptor), EXIT_OK);
    double waited = seconds_now() - start;
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    assert_true(descriptor >= 0);
    assert_true(waited > 0.05);
    test_file_read(said, text, sizeof text);
    assert_string_equal(text, "waiting here\n");
    /* The lock taken after the wait is on the file now named, not on the one the child removed. */
    char lock_path[256];
    struct stat held_status, named_status;
    snprintf(lock_path, sizeof lock_path, "%s/%s", base, DIRECTORY_LOCK_NAME);
    assert_int_equal(fstat(descriptor, &held_status), 0);
    assert_int_equal(stat(lock_path, &named_status), 0);
    assert_true(held_status.st_ino == named_status.st_ino);
    directory_unlock(descriptor, base, DIRECTORY_LOCK_NAME);
    int child_status;
    waitpid(holder, &child_status, 0);
    assert_int_equal(child_status, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_nested),
        cmocka_unit_test(test_create_over_a_file_fails),
        cmocka_unit_test(test_lock_is_exclusive),
        cmocka_unit_test(test_lock_in_missing_directory_fails),
        cmocka_unit_test(test_lock_waiting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
