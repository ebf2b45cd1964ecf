/* The one-line usage error every command prints. */
#include "usage.h"

#include "common/base/error.h"

#include <stdarg.h>
#include <stdio.h>

int usage_error(const char *program, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, format, arguments);
    fprintf(stderr, "; see '%s -h'\n", program);
    va_end(arguments);
    return EXIT_USAGE;
}
