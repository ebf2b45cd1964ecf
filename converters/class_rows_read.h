/* Reads the UCI layout: comma-separated decimal numbers then a class name, one example a line. */
#ifndef FUEL_CLASS_ROWS_READ_H
#define FUEL_CLASS_ROWS_READ_H

#include <stdbool.h>
#include <stddef.h>

struct class_row_reader;

/* Opens PATH, whose lines hold WIDTH numbers and a class name. EXIT_MISSING_INPUT when it cannot
   be opened. */
int class_rows_open(struct class_row_reader **reader, const char *path, size_t width);

/* Reads the next line that is neither blank nor a comment ('#' first, as numpy.loadtxt reads
   it): its numbers into VALUES, its class name (valid until the next call) into *NAME, its
   number into *LINE; *READ is false at the end. Numbers are parsed the same in every locale. A
   malformed line is EXIT_CORRUPT_INPUT "malformed line: PATH:LINE: why". */
int class_rows_next(struct class_row_reader *reader, double *values, const char **name,
                    unsigned long *line, bool *read);

void class_rows_close(struct class_row_reader *reader);

#endif
