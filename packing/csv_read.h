/* A bounded reader of CSV and TSV files (RFC 4180 quoting within a line), for numeric tables:
   rows of fields, and fields as numbers. */
#ifndef FUEL_CSV_READ_H
#define FUEL_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest line and the most fields a row may have. */
#define CSV_LINE_MAX (1u << 20)
#define CSV_MAX_FIELDS 65536u

struct csv_reader;

/* Opens PATH, fields separated by SEPARATOR (',' for CSV, '\t' for TSV). EXIT_MISSING_INPUT when
   it cannot be opened (*READER is then NULL). */
int csv_open(struct csv_reader **reader, const char *path, char separator);

/* The next row that is not blank: *FIELDS, *COUNT of them, each NUL-terminated and unquoted
   (valid until the next call), and *LINE, its line number from 1; *COUNT is 0 at the end of the
   file. A UTF-8 byte order mark before the first line and a '\r' before each '\n' are dropped.
   EXIT_CORRUPT_INPUT, "malformed CSV: PATH:LINE: why", for a line longer than CSV_LINE_MAX, a
   NUL byte, a quote left open at the end of a line, text after a closing quote, or more than
   CSV_MAX_FIELDS fields. */
int csv_next(struct csv_reader *reader, char ***fields, size_t *count, size_t *line);

/* The path the reader was opened with. */
const char *csv_path(const struct csv_reader *reader);

/* FIELD as a decimal number (spaces around it allowed; nan, inf and infinity in any case;
   no hexadecimal); false when it is not one. */
bool csv_real(const char *field, double *value);

/* FIELD as a whole number (spaces around it allowed) that fits in int64, or in uint64 when
   UNSIGNED; false when it is not one or does not fit. */
bool csv_whole(const char *field, bool is_unsigned, int64_t *whole, uint64_t *natural);

void csv_close(struct csv_reader *reader);

#endif
