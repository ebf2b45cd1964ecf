/* Reads the rows of UCI data files whose fields are separated by commas ("39, State-gov, ..."),
   in bounded memory. */
#ifndef FUEL_FIELD_ROWS_READ_H
#define FUEL_FIELD_ROWS_READ_H

#include <stdbool.h>
#include <stddef.h>

#define FIELD_ROWS_MAX_LINE 4096
#define FIELD_ROWS_MAX_FIELDS 64

struct field_row {
    /* The fields, without the spaces and tabs around them; valid until the next call. */
    const char *fields[FIELD_ROWS_MAX_FIELDS];
    /* How many the line holds; FIELD_ROWS_MAX_FIELDS + 1 when more (only the first are kept). */
    size_t count;
    unsigned long line; /* its number in the file, from 1 */
};

struct field_row_reader;

/* Opens PATH; EXIT_MISSING_INPUT when it cannot be opened. */
int field_rows_open(struct field_row_reader **reader, const char *path);

/* Reads the next row into ROW; *READ is false at the end. Blank lines and comment lines (whose
   first character is '|', as UCI's adult.test begins) are skipped; a carriage return before the
   newline is dropped. A line over FIELD_ROWS_MAX_LINE bytes or holding a NUL byte is
   EXIT_CORRUPT_INPUT "malformed line: PATH:LINE: why". */
int field_rows_next(struct field_row_reader *reader, struct field_row *row, bool *read);

/* Parses FIELD as a plain decimal number (digits, a sign, a point, an exponent; no hex, inf or
   nan) the same in every locale; false when it is not one or overflows. */
bool field_rows_number(const struct field_row_reader *reader, const char *field, double *value);

/* The path the reader was opened with. */
const char *field_rows_path(const struct field_row_reader *reader);

/* Goes back to the first line. */
int field_rows_rewind(struct field_row_reader *reader);

void field_rows_close(struct field_row_reader *reader);

#endif
