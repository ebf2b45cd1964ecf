/* Parses md5sum/sha256sum output so mirrors that repack files can be verified against it. */
#include "checksum_list.h"
#include "common/base/input_file.h"

#include "common/base/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_LIMIT = 4096 };

static size_t hex_length(const char *text)
{
    size_t length = 0;
    while (isxdigit((unsigned char)text[length]))
        length++;
    return length;
}

static int checksum_list_append(struct checksum_list *list, const char *hex, size_t length,
                                const char *name)
{
    struct checksum_entry *entries = realloc(list->entries, (list->count + 1) * sizeof *entries);
    if (entries == NULL)
        return error_set(EXIT_OTHER, "cannot read checksums: out of memory");
    list->entries = entries;
    struct checksum_entry *entry = &list->entries[list->count];
    entry->name = strdup(name);
    if (entry->name == NULL)
        return error_set(EXIT_OTHER, "cannot read checksums: out of memory");
    for (size_t index = 0; index < length; index++)
        entry->hex[index] = (char)tolower((unsigned char)hex[index]);
    entry->hex[length] = '\0';
    list->count++;
    return EXIT_OK;
}

/* One "HEX  NAME" or "HEX *NAME" line without its newline. */
static int checksum_line_parse(struct checksum_list *list, char *line, const char *path,
                               size_t number)
{
    size_t length = hex_length(line);
    if (hash_algorithm_for_length(length) < 0 || line[length] != ' ' ||
        (line[length + 1] != ' ' && line[length + 1] != '*') || line[length + 2] == '\0')
        return error_set(EXIT_CORRUPT_INPUT,
                         "malformed checksum line: %s:%zu: expected an md5 or sha256 in hex, "
                         "two spaces (or a space and '*') and a file name", path, number);
    return checksum_list_append(list, line, length, line + length + 2);
}

static int checksum_stream_parse(struct checksum_list *list, FILE *stream, const char *path)
{
    char line[LINE_LIMIT + 2];
    size_t number = 0;
    while (fgets(line, sizeof line, stream) != NULL) {
        number++;
        size_t length = strlen(line);
        if (length > LINE_LIMIT)
            return error_set(EXIT_CORRUPT_INPUT, "malformed checksum line: %s:%zu: too long",
                             path, number);
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = '\0';
        if (length == 0 || line[0] == '#')
            continue;
        int result = checksum_line_parse(list, line, path, number);
        if (result != EXIT_OK)
            return result;
    }
    if (ferror(stream))
        return error_set(EXIT_OTHER, "cannot read: %s: %s", path, strerror(errno));
    return EXIT_OK;
}

int checksum_list_load(struct checksum_list *list, const char *path)
{
    list->entries = NULL;
    list->count = 0;
    FILE *stream = input_file_stream(path);
    if (stream == NULL && error_code() == EXIT_MISSING_INPUT) {
        char why[1024];
        snprintf(why, sizeof why, "%s", error_message());
        return error_set(EXIT_MISSING_INPUT, "cannot open checksums: %s", why);
    }
    if (stream == NULL)
        return error_code();
    int result = checksum_stream_parse(list, stream, path);
    fclose(stream);
    if (result != EXIT_OK)
        checksum_list_free(list);
    return result;
}

const char *checksum_list_find(const struct checksum_list *list, const char *name)
{
    const char *found = NULL;
    for (size_t index = 0; index < list->count; index++)
        if (strcmp(basename(list->entries[index].name), name) == 0)
            found = list->entries[index].hex;
    return found;
}

void checksum_list_free(struct checksum_list *list)
{
    for (size_t index = 0; index < list->count; index++)
        free(list->entries[index].name);
    free(list->entries);
    list->entries = NULL;
    list->count = 0;
}
