/* Reads CSV and TSV files line by line from a bounded buffer, splitting fields in place and
   undoing RFC 4180 quotes; parses fields as numbers the way Python's float() and int() do. */
#include "csv_read.h"
#include "common/base/input_file.h"

#include "common/base/error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct csv_reader {
    char *path;
    int descriptor;
    char separator;
    char *buffer; /* CSV_LINE_MAX + 1 bytes: the data read and not yet consumed */
    size_t start, end;
    bool at_end;
    size_t line;
    char **fields;
};

static int malformed(const struct csv_reader *reader, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static int malformed(const struct csv_reader *reader, const char *format, ...)
{
    char why[256];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_CORRUPT_INPUT, "malformed CSV: %s:%zu: %s", reader->path, reader->line,
                     why);
}

int csv_open(struct csv_reader **reader, const char *path, char separator)
{
    struct csv_reader *opened = calloc(1, sizeof *opened);
    *reader = NULL;
    if (opened == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    opened->separator = separator;
    opened->path = strdup(path);
    opened->buffer = malloc(CSV_LINE_MAX + 1);
    opened->fields = malloc(CSV_MAX_FIELDS * sizeof *opened->fields);
    opened->descriptor = input_file_open(path, NULL);
    int result = EXIT_OK;
    if (opened->path == NULL || opened->buffer == NULL || opened->fields == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    else if (opened->descriptor < 0)
        result = error_code();
    if (result != EXIT_OK) {
        csv_close(opened);
        return result;
    }
    *reader = opened;
    return EXIT_OK;
}

/* Moves what is left to the buffer's start and reads more; false at the end of the file. */
static int refill(struct csv_reader *reader)
{
    memmove(reader->buffer, reader->buffer + reader->start, reader->end - reader->start);
    reader->end -= reader->start;
    reader->start = 0;
    while (!reader->at_end && reader->end < CSV_LINE_MAX) {
        ssize_t got = input_file_read(reader->descriptor, reader->buffer + reader->end,
                           CSV_LINE_MAX - reader->end);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: %s", reader->path,
                             strerror(errno));
        if (got == 0)
            reader->at_end = true;
        reader->end += (size_t)got;
        if (got > 0)
            break;
    }
    return EXIT_OK;
}

/* The next line, NUL-terminated, without its '\r\n' or '\n': *TEXT, NULL at the end. */
static int next_line(struct csv_reader *reader, char **text, size_t *length)
{
    *text = NULL;
    for (;;) {
        char *start = reader->buffer + reader->start;
        char *newline = memchr(start, '\n', reader->end - reader->start);
        if (newline != NULL || (reader->at_end && reader->end > reader->start)) {
            size_t size = newline != NULL ? (size_t)(newline - start) : reader->end - reader->start;
            reader->start += size + (newline != NULL);
            reader->line++;
            if (size > 0 && start[size - 1] == '\r')
                size--;
            start[size] = '\0';
            *text = start;
            *length = size;
            return EXIT_OK;
        }
        if (reader->at_end)
            return EXIT_OK;
        if (reader->start == 0 && reader->end == CSV_LINE_MAX) {
            reader->line++;
            return malformed(reader, "a line longer than %u bytes", CSV_LINE_MAX);
        }
        int result = refill(reader);
        if (result != EXIT_OK)
            return result;
    }
}

/* A quoted field starting at TEXT (its opening quote), unquoted in place; *END after it. */
static int quoted_field(struct csv_reader *reader, char *text, char **end)
{
    char *read = text + 1, *write = text;
    for (;;) {
        if (*read == '\0')
            return malformed(reader, "a quote left open (quoted fields cannot span lines)");
        if (*read == '"' && read[1] == '"') {
            *write++ = '"';
            read += 2;
        } else if (*read == '"') {
            read++;
            break;
        } else {
            *write++ = *read++;
        }
    }
    if (*read != '\0' && *read != reader->separator)
        return malformed(reader, "text after a closing quote");
    *write = '\0';
    *end = read;
    return EXIT_OK;
}

static int split_fields(struct csv_reader *reader, char *text, size_t *count)
{
    *count = 0;
    for (;;) {
        if (*count == CSV_MAX_FIELDS)
            return malformed(reader, "more than %u fields", CSV_MAX_FIELDS);
        reader->fields[(*count)++] = text;
        char *end = text;
        if (*text == '"') {
            int result = quoted_field(reader, text, &end);
            if (result != EXIT_OK)
                return result;
        } else {
            end = strchr(text, reader->separator);
            if (end == NULL)
                end = text + strlen(text);
        }
        if (*end == '\0')
            return EXIT_OK;
        *end = '\0';
        text = end + 1;
    }
}

int csv_next(struct csv_reader *reader, char ***fields, size_t *count, size_t *line)
{
    *count = 0;
    *fields = reader->fields;
    for (;;) {
        char *text;
        size_t length;
        int result = next_line(reader, &text, &length);
        if (result != EXIT_OK || text == NULL)
            return result;
        if (memchr(text, '\0', length) != NULL)
            return malformed(reader, "a NUL byte");
        if (reader->line == 1 && length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            length -= 3;
        }
        if (memmem(text, length, "\xEF\xBB\xBF", 3) != NULL)
            return malformed(reader, "a byte-order mark (U+FEFF) past the start of the file");
        if (length == 0)
            continue;
        *line = reader->line;
        return split_fields(reader, text, count);
    }
}

const char *csv_path(const struct csv_reader *reader)
{
    return reader->path;
}

/* FIELD without the spaces around it, into TEXT (SIZE bytes); false when empty or too long. */
static bool trimmed(const char *field, char *text, size_t size)
{
    while (*field == ' ' || *field == '\t')
        field++;
    size_t length = strlen(field);
    while (length > 0 && (field[length - 1] == ' ' || field[length - 1] == '\t'))
        length--;
    if (length == 0 || length >= size)
        return false;
    memcpy(text, field, length);
    text[length] = '\0';
    return true;
}

bool csv_real(const char *field, double *value)
{
    char text[128];
    if (!trimmed(field, text, sizeof text) || strpbrk(text, "xX(") != NULL)
        return false;
    const char *digits = text + (text[0] == '+' || text[0] == '-');
    bool named = strcasecmp(digits, "nan") == 0 || strcasecmp(digits, "inf") == 0 ||
                 strcasecmp(digits, "infinity") == 0;
    if (!named && !isdigit((unsigned char)digits[0]) && digits[0] != '.')
        return false;
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return *end == '\0' && end != text;
}

bool csv_whole(const char *field, bool is_unsigned, int64_t *whole, uint64_t *natural)
{
    char text[64];
    if (!trimmed(field, text, sizeof text))
        return false;
    const char *digits = text + (text[0] == '+' || text[0] == '-');
    for (const char *at = digits; *at != '\0'; at++)
        if (!isdigit((unsigned char)*at))
            return false;
    if (*digits == '\0')
        return false;
    char *end;
    errno = 0;
    if (is_unsigned) {
        if (text[0] == '-')
            return digits[strspn(digits, "0")] == '\0' && (*natural = 0, true);
        *natural = strtoull(text, &end, 10);
    } else {
        *whole = strtoll(text, &end, 10);
    }
    return errno == 0 && *end == '\0';
}

void csv_close(struct csv_reader *reader)
{
    if (reader == NULL)
        return;
    if (reader->descriptor >= 0)
        input_file_close(reader->descriptor);
    free(reader->path);
    free(reader->buffer);
    free(reader->fields);
    free(reader);
}
