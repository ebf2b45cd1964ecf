/* The one-line usage error every command prints, and the option lists of -h. */
#ifndef FUEL_USAGE_H
#define FUEL_USAGE_H

#include "common/base/command_option.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Prints "PROGRAM: MESSAGE; see 'PROGRAM -h'" on stderr (MESSAGE printf-style); returns
   EXIT_USAGE. */
int usage_error(const char *program, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROGRAM: MESSAGE; ENDING" when ENDING (the closest names, or the valid values) is not
   "", else usage_error's line; returns EXIT_USAGE. */
int usage_error_ending(const char *program, const char *ending, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* While RECORD is true, the two above print nothing: they record MESSAGE with error_set
   (EXIT_USAGE), for a command line read from a file rather than typed (fuel-reproduce). */
void usage_errors_record(bool record);

/* "TITLE:" and a line per option of OPTIONS (synopsis, then its help from column 29), and
   "-h, --help" last when WITH_HELP. */
void usage_print_options(FILE *stream, const char *title, const struct command_option *options,
                         size_t count, bool with_help);

/* The name of OPTION's value in -h: its ARGUMENT, else its choices as {a,b,c}, else "". */
void usage_value_name(const struct command_option *option, char *text, size_t size);

#endif
