/* Keeps the last error message and exit code (per thread) so the command layer can print one line. */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_message[2048];
static _Thread_local int last_code;

int error_set(int code, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(last_message, sizeof last_message, format, arguments);
    va_end(arguments);
    /* One line: a library's reason may end with its own newline (libarchive's zip reader). */
    size_t length = strlen(last_message);
    while (length > 0 && (last_message[length - 1] == '\n' || last_message[length - 1] == '\r'))
        last_message[--length] = '\0';
    last_code = code;
    return code;
}

const char *error_system_reason(void)
{
    return errno != 0 ? strerror(errno) : "write failed";
}

const char *error_message(void)
{
    return last_message;
}

int error_code(void)
{
    return last_code;
}

void error_clear(void)
{
    last_message[0] = '\0';
    last_code = EXIT_OK;
}

void error_path_replace(const char *from, const char *to)
{
    size_t from_length = strlen(from), to_length = strlen(to);
    char *found = from_length > 0 ? strstr(last_message, from) : NULL;
    while (found != NULL) {
        size_t tail = strlen(found + from_length);
        if ((size_t)(found - last_message) + to_length + tail >= sizeof last_message)
            return;
        memmove(found + to_length, found + from_length, tail + 1);
        memcpy(found, to, to_length);
        found = strstr(found + to_length, from);
    }
}

void error_print(const char *program)
{
    fprintf(stderr, "%s: %s\n", program, last_message[0] ? last_message : "failed");
}
