/* Reads the UCI layout: comma-separated decimal numbers then a class name, one example a line. */
#include "class_rows_read.h"

#include "common/base/error.h"
#include "text_source.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct class_row_reader {
    FILE *file;
    char *path;
    size_t width;
    unsigned long line;
    char *text;
    size_t capacity;
    locale_t c_locale; /* strtod_l under "C": a decimal point whatever LC_NUMERIC says */
};

int class_rows_open(struct class_row_reader **reader, const char *path, size_t width)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL || ((*reader)->path = strdup(path)) == NULL) {
        class_rows_close(*reader);
        *reader = NULL;
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    }
    int opened = text_source_open(path, &(*reader)->file, &(*reader)->c_locale);
    if (opened != EXIT_OK) {
        class_rows_close(*reader);
        *reader = NULL;
        return opened;
    }
    (*reader)->width = width;
    return EXIT_OK;
}

static int malformed(const struct class_row_reader *reader, const char *why, const char *field)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed line: %s:%lu: %s '%.40s'", reader->path,
                     reader->line, why, field);
}

/* A plain decimal number: digits, one point, an optional exponent; no hex, inf or nan. */
static int parse_number(const struct class_row_reader *reader, char *field, double *value)
{
    field = text_trim(field);
    if (field[0] == '\0' || strspn(field, "0123456789+-.eE") != strlen(field))
        return malformed(reader, "not a decimal number:", field);
    char *end;
    errno = 0;
    *value = strtod_l(field, &end, reader->c_locale);
    if (*end != '\0' || errno == ERANGE || !isfinite(*value))
        return malformed(reader, "not a decimal number:", field);
    return EXIT_OK;
}

static int split_line(struct class_row_reader *reader, char *text, double *values,
                      const char **name)
{
    for (size_t index = 0; index < reader->width; index++) {
        char *comma = strchr(text, ',');
        if (comma == NULL)
            return malformed(reader, "fewer fields than expected in", text_trim(text));
        *comma = '\0';
        int result = parse_number(reader, text, &values[index]);
        if (result != EXIT_OK)
            return result;
        text = comma + 1;
    }
    *name = text_trim(text);
    if (strchr(*name, ',') != NULL || (*name)[0] == '\0')
        return malformed(reader, "not one class name:", *name);
    return EXIT_OK;
}

int class_rows_next(struct class_row_reader *reader, double *values, const char **name,
                    unsigned long *line, bool *read)
{
    *read = false;
    for (;;) {
        errno = 0;
        ssize_t length = getline(&reader->text, &reader->capacity, reader->file);
        if (length < 0)
            return ferror(reader->file) ? error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: %s",
                                                    reader->path, strerror(errno))
                                        : EXIT_OK;
        reader->line++;
        if ((size_t)length != strlen(reader->text))
            return malformed(reader, "NUL byte in the line:", reader->text);
        char *text = text_trim(reader->text);
        if (text[0] == '\0' || text[0] == '#')
            continue;
        *line = reader->line;
        int result = split_line(reader, text, values, name);
        *read = result == EXIT_OK;
        return result;
    }
}

void class_rows_close(struct class_row_reader *reader)
{
    if (reader == NULL)
        return;
    text_source_close(reader->file, reader->c_locale);
    free(reader->text);
    free(reader->path);
    free(reader);
}
