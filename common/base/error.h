/* Exit codes shared by every command, and the one-line error message a failing call leaves behind. */
#ifndef FUEL_ERROR_H
#define FUEL_ERROR_H

enum fuel_exit {
    EXIT_OK = 0,
    EXIT_OTHER = 1,
    EXIT_USAGE = 2,
    EXIT_MISSING_INPUT = 3,
    EXIT_CORRUPT_INPUT = 4,
    EXIT_TRANSFER = 5,
    EXIT_CHECKSUM = 6,
    EXIT_WRITE = 7,
};

/* Records "what happened: file or URL: why" (printf-style) with its exit code; returns the code,
   so callers write `return error_set(EXIT_CORRUPT_INPUT, "...", ...);`. */
int error_set(int code, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Why a system call just failed: strerror(errno), or "write failed" when errno is 0 (a stream
   that had failed before). For "cannot write: PATH: %s" messages. */
const char *error_system_reason(void);

/* The last recorded message and code; "" and EXIT_OK when nothing failed. */
const char *error_message(void);
int error_code(void);
void error_clear(void);

/* Prints "PROGRAM: message" on stderr, e.g. "fuel-convert: cannot read: x.gz: truncated". */
void error_print(const char *program);

/* Replaces FROM by TO wherever the last message names it: a temporary by the name the user gave
   (a staging path is an internal name no one can act on). */
void error_path_replace(const char *from, const char *to);

#endif
