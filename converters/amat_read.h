/* Reads .amat text: one example per line, whitespace-separated binary values 0 and 1. */
#ifndef FUEL_AMAT_READ_H
#define FUEL_AMAT_READ_H

#include <stdbool.h>
#include <stddef.h>

struct amat_reader;

/* Opens PATH, whose rows must hold WIDTH values each. EXIT_MISSING_INPUT when it cannot be
   opened. */
int amat_open(struct amat_reader **reader, const char *path, size_t width);

/* Reads the next row into ROW (WIDTH bytes, 0 or 1); *READ is false at the end. Spaces, tabs,
   CR (CRLF line ends), blank lines and comment lines (first non-blank character '#', as
   numpy.loadtxt reads them) are passed over. A value other than 0 or 1, or a line
   without WIDTH values, is EXIT_CORRUPT_INPUT "malformed amat file: PATH:LINE: why". */
int amat_next(struct amat_reader *reader, unsigned char *row, bool *read);

void amat_close(struct amat_reader *reader);

#endif
