/* Unit tests of the local data path cache: copy once, reuse while size and time match, atomic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "cmd/local_cache.h"
#include "support.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char original[200], local[200];

static int cache(enum cache_outcome *outcome)
{
    char path[512];
    int result = local_cache(original, local, "data.bin", path, sizeof path, outcome);
    if (result == EXIT_OK) {
        char expected[512];
        snprintf(expected, sizeof expected, "%s/data.bin", local);
        assert_string_equal(path, expected);
    }
    return result;
}

static void copies_then_reuses(void **state)
{
    (void)state;
    enum cache_outcome outcome;
    char copy[512], text[64];
    test_file_write(original, "first contents");
    assert_int_equal(cache(&outcome), EXIT_OK);
    assert_int_equal(outcome, CACHE_COPIED);
    snprintf(copy, sizeof copy, "%s/data.bin", local);
    test_file_read(copy, text, sizeof text);
    assert_string_equal(text, "first contents");
    struct stat source, copied;
    assert_int_equal(stat(original, &source), 0);
    assert_int_equal(stat(copy, &copied), 0);
    assert_int_equal(source.st_mtim.tv_sec, copied.st_mtim.tv_sec);
    assert_int_equal(source.st_mtim.tv_nsec, copied.st_mtim.tv_nsec);
    assert_int_equal(cache(&outcome), EXIT_OK);
    assert_int_equal(outcome, CACHE_REUSED);
}

/* Same size, another time: copied again; the lock file stays, no temporary file is left. */
static void copies_again_when_the_original_changes(void **state)
{
    (void)state;
    enum cache_outcome outcome;
    char copy[512], text[64];
    test_file_write(original, "older contents");
    assert_int_equal(cache(&outcome), EXIT_OK);
    test_file_write(original, "newer contents");
    struct timespec times[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    assert_int_equal(utimensat(AT_FDCWD, original, times, 0), 0);
    assert_int_equal(cache(&outcome), EXIT_OK);
    assert_int_equal(outcome, CACHE_COPIED);
    snprintf(copy, sizeof copy, "%s/data.bin", local);
    test_file_read(copy, text, sizeof text);
    assert_string_equal(text, "newer contents");
    DIR *listing = opendir(local);
    struct dirent *entry;
    size_t entries = 0;
    /* The copy alone: no staging left, and the lock file removed when the call ended. */
    while ((entry = readdir(listing)) != NULL)
        if (entry->d_name[0] != '.')
            entries++;
        else
            assert_true(strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0);
    closedir(listing);
    assert_int_equal(entries, 1);
}

static void concurrent_calls_copy_once(void **state)
{
    (void)state;
    char command[512];
    snprintf(command, sizeof command, "head -c 30000000 /dev/zero > %s", original);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, "rm -rf %s", local);
    assert_int_equal(system(command), 0);
    pid_t children[4];
    for (size_t index = 0; index < 4; index++) {
        children[index] = fork();
        assert_true(children[index] >= 0);
        if (children[index] == 0) {
            enum cache_outcome outcome;
            _exit(cache(&outcome) != EXIT_OK ? 2 : outcome == CACHE_COPIED ? 1 : 0);
        }
    }
    int copies = 0;
    for (size_t index = 0; index < 4; index++) {
        int status;
        assert_int_equal(waitpid(children[index], &status, 0), children[index]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) < 2);
        copies += WEXITSTATUS(status);
    }
    assert_int_equal(copies, 1);
}

static void missing_original_is_missing_input(void **state)
{
    (void)state;
    enum cache_outcome outcome;
    unlink(original);
    error_clear();
    assert_int_equal(cache(&outcome), EXIT_MISSING_INPUT);
    assert_non_null(strstr(error_message(), original));
}

static void unwritable_local_directory_is_write_error(void **state)
{
    (void)state;
    enum cache_outcome outcome;
    char inside[512], path[512];
    test_file_write(original, "contents");
    snprintf(inside, sizeof inside, "%s/inside", original);
    error_clear();
    assert_int_equal(local_cache(original, inside, "data.bin", path, sizeof path, &outcome),
                     EXIT_WRITE);
}

static int make_directory(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    test_path(original, sizeof original, test_directory, "data.bin");
    test_path(local, sizeof local, test_directory, "local/nested");
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copies_then_reuses),
        cmocka_unit_test(copies_again_when_the_original_changes),
        cmocka_unit_test(concurrent_calls_copy_once),
        cmocka_unit_test(missing_original_is_missing_input),
        cmocka_unit_test(unwritable_local_directory_is_write_error),
    };
    return cmocka_run_group_tests(tests, make_directory, test_directory_teardown);
}
