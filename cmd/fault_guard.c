/* Reports a fault of the HDF5 library reading a damaged file as one line and exit 4. */
#include "fault_guard.h"

#include "common/base/error.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
static char fault_message[PATH_MAX + 128];
static size_t fault_message_length;

static void fault_report(int signal_number)
{
    (void)signal_number;
    if (write(STDERR_FILENO, fault_message, fault_message_length) < 0)
        _exit(EXIT_CORRUPT_INPUT);
    _exit(EXIT_CORRUPT_INPUT);
}

static void fault_action_set(void (*handler)(int))
{
    struct sigaction action = {.sa_handler = handler};
    for (size_t index = 0; index < sizeof fault_signals / sizeof fault_signals[0]; index++)
        sigaction(fault_signals[index], &action, NULL);
}

void fault_guard_set(const char *program, const char *path)
{
    int length = snprintf(fault_message, sizeof fault_message,
                          "%s: damaged HDF5 file: %s: the HDF5 library failed reading it\n",
                          program, path);
    fault_message_length = length > 0 && (size_t)length < sizeof fault_message
                               ? (size_t)length
                               : strlen(fault_message);
    fault_action_set(fault_report);
}

void fault_guard_clear(void)
{
    fault_action_set(SIG_DFL);
}
