/* The usage line of -h, written from the command's option table and positionals: no command types
   its own (tests/lint/usage). */
#ifndef FUEL_USAGE_LINE_H
#define FUEL_USAGE_LINE_H

#include "runner.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The dataset a dataset command was given, which stands for its POSITIONAL_USAGE. */
struct usage_dataset {
    const char *label;                    /* "svhn 1", or an extra converter's name */
    const struct command_option *options; /* its converter's own options, shown last */
    size_t option_count;
    bool extra; /* an extra converter: its arguments are " [ARGUMENTS]" */
};

/* "usage: PROGRAM [-h] POSITIONALS [-x ARG]... [options]" for LINE, or with DATASET (NULL when
   none is named) in place of the positionals; a second line for a second form; lines carried on
   past 132 columns. Into TEXT of SIZE bytes, without a final newline; returns its length. */
size_t usage_line_format(char *text, size_t size, const char *program,
                         const struct command_line *line, const struct usage_dataset *dataset);

/* The same on STREAM, with a newline. */
void usage_line_print(FILE *stream, const char *program, const struct command_line *line,
                      const struct usage_dataset *dataset);

#endif
