/* A bounded reader of CelebA's attribute list: one fixed line buffer, values checked one by one.
   numpy.loadtxt (what Fuel reads it with) drops what follows a '#', skips blank lines and splits
   on any whitespace, so this does too; unlike loadtxt it checks the count line and refuses any value but -1 and 1, which
   Fuel's (value + 1) / 2 would turn into something other than 0 or 1. */
#include "attribute_list_read.h"
#include "common/base/input_file.h"

#include "common/base/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct attribute_list {
    FILE *file;
    char *path;
    size_t attributes;
    uint64_t declared;
    uint64_t rows;
    unsigned long line;
    char text[ATTRIBUTE_LIST_MAX_LINE + 2];
};

static int malformed(const struct attribute_list *list, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed attribute list: %s:%lu: %s", list->path,
                     list->line, why);
}

static bool is_space(char character)
{
    return character == ' ' || character == '\t' || character == '\r' || character == '\v' ||
           character == '\f';
}

/* Reads the next line into list->text without its end; *READ false at the end of the file. */
static int read_line(struct attribute_list *list, bool *read)
{
    *read = false;
    errno = 0;
    size_t length = 0;
    int character;
    while ((character = getc_unlocked(list->file)) != EOF && character != '\n') {
        if (length == ATTRIBUTE_LIST_MAX_LINE) {
            list->line++;
            return malformed(list, "line longer than 4096 bytes");
        }
        list->text[length++] = (char)character;
    }
    if (ferror(list->file))
        return error_set(EXIT_OTHER, "cannot read: %s: %s", list->path, strerror(errno));
    if (character == EOF && length == 0)
        return EXIT_OK;
    list->line++;
    list->text[length] = '\0';
    if (memchr(list->text, '\0', length) != NULL)
        return malformed(list, "NUL byte in the line");
    char *comment = strchr(list->text, '#');
    if (comment != NULL)
        *comment = '\0';
    *read = true;
    return EXIT_OK;
}

/* The next whitespace-separated word of the line at *CURSOR, NUL-terminated in place; NULL when
   none is left. */
static char *next_word(char **cursor)
{
    char *word = *cursor;
    while (is_space(*word))
        word++;
    if (*word == '\0')
        return NULL;
    char *end = word;
    while (*end != '\0' && !is_space(*end))
        end++;
    *cursor = *end == '\0' ? end : end + 1;
    *end = '\0';
    return word;
}

static size_t count_words(char *line)
{
    size_t count = 0;
    while (next_word(&line) != NULL)
        count++;
    return count;
}

static int read_header(struct attribute_list *list)
{
    bool read;
    int result = read_line(list, &read);
    if (result != EXIT_OK)
        return result;
    if (!read)
        list->line = 1;
    char *cursor = list->text, *count = read ? next_word(&cursor) : NULL;
    char *end = NULL;
    errno = 0;
    if (count != NULL && count[0] >= '0' && count[0] <= '9')
        list->declared = strtoull(count, &end, 10);
    if (count == NULL || end == NULL || *end != '\0' || errno != 0 || next_word(&cursor) != NULL)
        return malformed(list, read ? "the first line is not an image count"
                                    : "empty file: no image count");
    result = read_line(list, &read);
    if (result != EXIT_OK)
        return result;
    size_t names = read ? count_words(list->text) : 0;
    if (names != list->attributes) {
        char why[96];
        snprintf(why, sizeof why, "%zu attribute names, expected %zu", names, list->attributes);
        return malformed(list, why);
    }
    return EXIT_OK;
}

int attribute_list_open(struct attribute_list **list, const char *path, size_t attributes)
{
    *list = calloc(1, sizeof **list);
    if (*list == NULL || ((*list)->path = strdup(path)) == NULL) {
        free(*list);
        *list = NULL;
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    }
    (*list)->attributes = attributes;
    (*list)->file = input_file_stream(path);
    int result = (*list)->file == NULL ? input_open_failure(path) : read_header(*list);
    if (result != EXIT_OK) {
        attribute_list_close(*list);
        *list = NULL;
    }
    return result;
}

uint64_t attribute_list_declared(const struct attribute_list *list)
{
    return list->declared;
}

/* The values after the image's name on the current line. */
static int parse_values(struct attribute_list *list, char *cursor, uint8_t *values)
{
    size_t count = 0;
    for (char *word; (word = next_word(&cursor)) != NULL; count++) {
        bool minus = strcmp(word, "-1") == 0;
        if (!minus && strcmp(word, "1") != 0) {
            char why[96];
            snprintf(why, sizeof why, "value other than -1 or 1: '%.40s'", word);
            return malformed(list, why);
        }
        if (count < list->attributes)
            values[count] = minus ? 0 : 1;
    }
    if (count != list->attributes) {
        char why[96];
        snprintf(why, sizeof why, "%zu values after the image name, expected %zu", count,
                 list->attributes);
        return malformed(list, why);
    }
    return EXIT_OK;
}

static int check_count(struct attribute_list *list)
{
    if (list->rows == list->declared)
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT, "malformed attribute list: %s: %" PRIu64
                     " images listed, the first line declares %" PRIu64, list->path, list->rows,
                     list->declared);
}

int attribute_list_next(struct attribute_list *list, const char **name, uint8_t *values,
                        unsigned long *line, bool *read)
{
    for (;;) {
        int result = read_line(list, read);
        if (result != EXIT_OK)
            return result;
        if (!*read)
            return check_count(list);
        char *cursor = list->text;
        char *word = next_word(&cursor);
        if (word == NULL)
            continue;
        *name = word;
        *line = list->line;
        list->rows++;
        return parse_values(list, cursor, values);
    }
}

void attribute_list_close(struct attribute_list *list)
{
    if (list == NULL)
        return;
    if (list->file != NULL)
        fclose(list->file);
    free(list->path);
    free(list);
}
