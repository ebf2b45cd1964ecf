/* Runs another program with one extra environment variable and collects its standard output. */
#ifndef FUEL_SUBPROCESS_H
#define FUEL_SUBPROCESS_H

#include <stdbool.h>
#include <stddef.h>

struct subprocess_result {
    char *output;         /* its stdout, NUL-terminated, at most the limit given (caller frees) */
    size_t length;
    bool output_cut;      /* it printed more than the limit; the rest was read and dropped */
    int status;           /* the wait status, for WIFEXITED / WEXITSTATUS / WTERMSIG */
};

/* Runs ARGUMENTS[0] (a path; ARGUMENTS NULL-terminated) with VARIABLE=VALUE added to the
   environment, stdin and stderr inherited, and waits for it. EXIT_OTHER when it cannot be
   started (the message names it and why). */
int subprocess_run(char *const *arguments, const char *variable, const char *value,
                   size_t output_limit, struct subprocess_result *result);

#endif
