/* Reads the rows of UCI data files whose fields are separated by commas (see field_rows.h). */
#include "field_rows_read.h"

#include "common/base/error.h"
#include "text_source.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct field_row_reader {
    FILE *file;
    char *path;
    unsigned long line;
    locale_t c_locale; /* strtod_l under "C": a decimal point whatever LC_NUMERIC says */
    char text[FIELD_ROWS_MAX_LINE + 1];
};

int field_rows_open(struct field_row_reader **reader, const char *path)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL || ((*reader)->path = strdup(path)) == NULL) {
        field_rows_close(*reader);
        *reader = NULL;
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    }
    int opened = text_source_open(path, &(*reader)->file, &(*reader)->c_locale);
    if (opened != EXIT_OK) {
        field_rows_close(*reader);
        *reader = NULL;
        return opened;
    }
    return EXIT_OK;
}

static int malformed(const struct field_row_reader *reader, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed line: %s:%lu: %s", reader->path, reader->line,
                     why);
}

/* Reads one line (without its newline) into reader->text; *END when the file had no more. */
static int read_line(struct field_row_reader *reader, bool *end)
{
    size_t used = 0;
    int character;
    errno = 0;
    reader->line++;
    while ((character = getc_unlocked(reader->file)) != EOF && character != '\n') {
        if (used == FIELD_ROWS_MAX_LINE)
            return malformed(reader, "longer than 4096 bytes");
        if (character == '\0')
            return malformed(reader, "NUL byte in the line");
        reader->text[used++] = (char)character;
    }
    if (character == EOF && ferror(reader->file))
        return error_set(EXIT_OTHER, "cannot read: %s: %s", reader->path,
                         errno != 0 ? strerror(errno) : "read failed");
    reader->text[used] = '\0';
    *end = character == EOF && used == 0;
    return EXIT_OK;
}

static void split_fields(char *text, struct field_row *row)
{
    row->count = 0;
    for (;;) {
        char *comma = strchr(text, ',');
        if (comma != NULL)
            *comma = '\0';
        if (row->count < FIELD_ROWS_MAX_FIELDS)
            row->fields[row->count] = text_trim(text);
        row->count++;
        if (comma == NULL || row->count > FIELD_ROWS_MAX_FIELDS)
            break;
        text = comma + 1;
    }
}

int field_rows_next(struct field_row_reader *reader, struct field_row *row, bool *read)
{
    *read = false;
    for (;;) {
        bool end = false;
        int status = read_line(reader, &end);
        if (status != EXIT_OK || end)
            return status;
        char *text = text_trim(reader->text);
        if (text[0] == '\0' || text[0] == '|')
            continue;
        split_fields(text, row);
        row->line = reader->line;
        *read = true;
        return EXIT_OK;
    }
}

bool field_rows_number(const struct field_row_reader *reader, const char *field, double *value)
{
    if (field[0] == '\0' || strspn(field, "0123456789+-.eE") != strlen(field))
        return false;
    char *end;
    errno = 0;
    *value = strtod_l(field, &end, reader->c_locale);
    return *end == '\0' && errno != ERANGE && isfinite(*value);
}

const char *field_rows_path(const struct field_row_reader *reader)
{
    return reader->path;
}

int field_rows_rewind(struct field_row_reader *reader)
{
    reader->line = 0;
    if (fseek(reader->file, 0, SEEK_SET) != 0)
        return error_set(EXIT_OTHER, "cannot read: %s: %s", reader->path, strerror(errno));
    return EXIT_OK;
}

void field_rows_close(struct field_row_reader *reader)
{
    if (reader == NULL)
        return;
    text_source_close(reader->file, reader->c_locale);
    free(reader->path);
    free(reader);
}
