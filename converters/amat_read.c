/* Reads .amat text: one example per line, whitespace-separated binary values 0 and 1. */
#include "amat_read.h"
#include "common/base/input_file.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { READ_BUFFER = 1 << 20 };

struct amat_reader {
    FILE *file;
    char *path;
    size_t width;
    unsigned long line; /* 1-based number of the line being read */
};

int amat_open(struct amat_reader **reader, const char *path, size_t width)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL || ((*reader)->path = strdup(path)) == NULL) {
        free(*reader);
        *reader = NULL;
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    }
    (*reader)->file = input_file_stream(path);
    if ((*reader)->file == NULL) {
        int code = input_open_failure(path);
        amat_close(*reader);
        *reader = NULL;
        return code;
    }
    setvbuf((*reader)->file, NULL, _IOFBF, READ_BUFFER);
    (*reader)->width = width;
    (*reader)->line = 1;
    return EXIT_OK;
}

static bool is_blank(int character)
{
    return character == ' ' || character == '\t' || character == '\r' || character == '\v' ||
           character == '\f';
}

static int malformed(const struct amat_reader *reader, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed amat file: %s:%lu: %s", reader->path,
                     reader->line, why);
}

static int wrong_count(const struct amat_reader *reader, const char *how)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed amat file: %s:%lu: %s values than %zu",
                     reader->path, reader->line, how, reader->width);
}

/* Reads one value starting with FIRST; 0 or 1, or -1 when the token is anything else. */
static int read_value(struct amat_reader *reader, int first)
{
    int next = getc_unlocked(reader->file);
    if (next != EOF && next != '\n' && !is_blank(next))
        return -1;
    if (next != EOF)
        ungetc(next, reader->file);
    return first == '0' ? 0 : first == '1' ? 1 : -1;
}

/* Passes over the rest of a comment line, its newline left to end it. */
static void comment_skip(struct amat_reader *reader)
{
    int character;
    while ((character = getc_unlocked(reader->file)) != EOF && character != '\n')
        ;
    if (character == '\n')
        ungetc(character, reader->file);
}

/* Ends the current line: a whole row, or a blank line passed over (*READ stays false). */
static int end_line(struct amat_reader *reader, size_t count, bool *read)
{
    if (count == 0)
        return EXIT_OK;
    if (count != reader->width)
        return wrong_count(reader, "fewer");
    *read = true;
    return EXIT_OK;
}

int amat_next(struct amat_reader *reader, unsigned char *row, bool *read)
{
    size_t count = 0;
    *read = false;
    for (;;) {
        int character = getc_unlocked(reader->file);
        if (character == EOF) {
            if (ferror(reader->file))
                return error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: %s", reader->path,
                                 strerror(errno));
            return end_line(reader, count, read);
        }
        if (character == '\n') {
            int result = end_line(reader, count, read);
            reader->line++;
            if (result != EXIT_OK || *read)
                return result;
            continue;
        }
        if (is_blank(character))
            continue;
        if (character == '#' && count == 0) {
            comment_skip(reader);
            continue;
        }
        int value = read_value(reader, character);
        if (value < 0)
            return malformed(reader, "value other than 0 or 1");
        if (count == reader->width)
            return wrong_count(reader, "more");
        row[count++] = (unsigned char)value;
    }
}

void amat_close(struct amat_reader *reader)
{
    if (reader == NULL)
        return;
    if (reader->file != NULL)
        fclose(reader->file);
    free(reader->path);
    free(reader);
}
