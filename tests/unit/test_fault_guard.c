/* Unit tests for common/fault_guard.c: a fault while set is one line and exit 4; cleared, a fault
   kills as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "cmd/fault_guard.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs, in a child whose stderr is captured into MESSAGE: the guard set (then cleared when
   CLEARED), then SIGNAL_NUMBER raised. Returns the child's wait status. */
static int fault_in_child(int signal_number, bool cleared, char *message, size_t size)
{
    int pipe_ends[2];
    assert_int_equal(pipe(pipe_ends), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(pipe_ends[1], STDERR_FILENO);
        close(pipe_ends[0]);
        fault_guard_set("fuel-test", "/data/broken.hdf5");
        if (cleared)
            fault_guard_clear();
        raise(signal_number);
        _exit(0);
    }
    close(pipe_ends[1]);
    ssize_t length = read(pipe_ends[0], message, size - 1);
    message[length > 0 ? length : 0] = '\0';
    close(pipe_ends[0]);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    return status;
}

static void test_fault_reported_as_damage(void **state)
{
    (void)state;
    static const int signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        char message[256];
        int status = fault_in_child(signals[index], false, message, sizeof message);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), EXIT_CORRUPT_INPUT);
        assert_string_equal(message, "fuel-test: damaged HDF5 file: /data/broken.hdf5: the HDF5 "
                                     "library failed reading it\n");
    }
}

static void test_cleared_fault_kills(void **state)
{
    (void)state;
    char message[256];
    int status = fault_in_child(SIGSEGV, true, message, sizeof message);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
    assert_string_equal(message, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_reported_as_damage),
        cmocka_unit_test(test_cleared_fault_kills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
