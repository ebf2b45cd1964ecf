/* Unit tests for common/subprocess.c: output, the variable, exit statuses, signals, the limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "converters/subprocess.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int run_shell(const char *script, size_t limit, struct subprocess_result *result)
{
    char *arguments[] = {"/bin/sh", "-c", (char *)script, NULL};
    return subprocess_run(arguments, "FUEL_TEST_VARIABLE", "the value", limit, result);
}

static void test_output_variable_and_status(void **state)
{
    (void)state;
    struct subprocess_result result;
    assert_int_equal(run_shell("printf 'a\\nb\\n'; echo \"$FUEL_TEST_VARIABLE\"; exit 3", 1024,
                               &result),
                     EXIT_OK);
    assert_string_equal(result.output, "a\nb\nthe value\n");
    assert_int_equal(result.length, strlen("a\nb\nthe value\n"));
    assert_false(result.output_cut);
    assert_true(WIFEXITED(result.status));
    assert_int_equal(WEXITSTATUS(result.status), 3);
    assert_null(getenv("FUEL_TEST_VARIABLE"));
    free(result.output);
}

static void test_no_output(void **state)
{
    (void)state;
    struct subprocess_result result;
    assert_int_equal(run_shell("true", 16, &result), EXIT_OK);
    assert_string_equal(result.output, "");
    assert_int_equal(result.length, 0);
    assert_true(WIFEXITED(result.status));
    assert_int_equal(WEXITSTATUS(result.status), 0);
    free(result.output);
}

/* A megabyte printed against a 10-byte limit: the child is drained to its end, not blocked. */
static void test_output_beyond_limit_is_cut(void **state)
{
    (void)state;
    struct subprocess_result result;
    assert_int_equal(run_shell("head -c 1048576 /dev/zero | tr '\\0' x; exit 5", 10, &result),
                     EXIT_OK);
    assert_string_equal(result.output, "xxxxxxxxxx");
    assert_true(result.output_cut);
    assert_int_equal(WEXITSTATUS(result.status), 5);
    free(result.output);
}

static void test_killed_by_signal(void **state)
{
    (void)state;
    struct subprocess_result result;
    assert_int_equal(run_shell("echo before; kill -TERM $$", 64, &result), EXIT_OK);
    assert_string_equal(result.output, "before\n");
    assert_true(WIFSIGNALED(result.status));
    assert_int_equal(WTERMSIG(result.status), SIGTERM);
    free(result.output);
}

static void test_missing_program(void **state)
{
    (void)state;
    struct subprocess_result result;
    char *arguments[] = {"/nonexistent/fuel-convert-x", NULL};
    assert_int_equal(subprocess_run(arguments, "FUEL_TEST_VARIABLE", "v", 64, &result), EXIT_OTHER);
    assert_string_equal(error_message(),
                        "cannot run: /nonexistent/fuel-convert-x: No such file or directory");
    assert_null(result.output);
    assert_null(getenv("FUEL_TEST_VARIABLE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_variable_and_status),
        cmocka_unit_test(test_no_output),
        cmocka_unit_test(test_output_beyond_limit_is_cut),
        cmocka_unit_test(test_killed_by_signal),
        cmocka_unit_test(test_missing_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
