/* The values of config entries: $VAR, ${VAR} and ~ expanded as Fuel expands paths; string lists. */
#include "config_values.h"

#include "error.h"

#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The longest variable or user name looked up. */
enum { VARIABLE_NAME_MAX = 256 };

int config_out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot load config: out of memory");
}

const char *config_home_directory(void)
{
    const char *home = getenv("HOME");
    if (home != NULL && home[0] != '\0')
        return home;
    struct passwd *entry = getpwuid(getuid());
    return entry != NULL ? entry->pw_dir : NULL;
}

/* The length of a "$NAME" or "${NAME}" reference at the start of TEXT, 0 when there is none. */
static size_t variable_reference(const char *text, size_t length, const char **name,
                                 size_t *name_length)
{
    if (length < 2 || text[0] != '$')
        return 0;
    if (text[1] == '{') {
        const char *close = memchr(text + 2, '}', length - 2);
        if (close == NULL)
            return 0;
        *name = text + 2;
        *name_length = (size_t)(close - *name);
        return (size_t)(close - text) + 1;
    }
    size_t end = 1;
    while (end < length && (isalnum((unsigned char)text[end]) || text[end] == '_'))
        end++;
    *name = text + 1;
    *name_length = end - 1;
    return end > 1 ? end : 0;
}

static const char *variable_value(const char *name, size_t name_length)
{
    char buffer[VARIABLE_NAME_MAX];
    if (name_length == 0 || name_length >= sizeof buffer)
        return NULL;
    memcpy(buffer, name, name_length);
    buffer[name_length] = '\0';
    return getenv(buffer);
}

/* "~" or "~user" at the start of TEXT (up to the first '/'), as Python's os.path.expanduser. */
static const char *user_directory(const char *text, size_t *consumed)
{
    const char *slash = strchr(text, '/');
    size_t length = slash != NULL ? (size_t)(slash - text) : strlen(text);
    *consumed = length;
    if (length == 1)
        return config_home_directory();
    char user[VARIABLE_NAME_MAX];
    if (length - 1 >= sizeof user)
        return NULL;
    memcpy(user, text + 1, length - 1);
    user[length - 1] = '\0';
    struct passwd *entry = getpwnam(user);
    return entry != NULL ? entry->pw_dir : NULL;
}

/* TEXT with $VAR and ${VAR} replaced when VAR is set, then a leading ~ or ~user replaced, as
   Fuel does to each data path entry (expanduser(expandvars(path))). */
static char *path_expand(const char *text, size_t length)
{
    char *expanded = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&expanded, &size);
    if (stream == NULL)
        return NULL;
    for (size_t index = 0; index < length;) {
        const char *name = NULL, *value = NULL;
        size_t name_length = 0;
        size_t reference = variable_reference(text + index, length - index, &name, &name_length);
        if (reference > 0 && (value = variable_value(name, name_length)) != NULL) {
            fputs(value, stream);
            index += reference;
        } else {
            fputc(text[index++], stream);
        }
    }
    if (fclose(stream) != 0) {
        free(expanded);
        return NULL;
    }
    size_t consumed = 0;
    const char *directory = expanded[0] == '~' ? user_directory(expanded, &consumed) : NULL;
    if (directory == NULL)
        return expanded;
    char *result = NULL;
    if (asprintf(&result, "%s%s", directory, expanded + consumed) < 0)
        result = NULL;
    free(expanded);
    return result;
}

int string_list_add(struct string_list *list, char *item)
{
    char **items = item != NULL ? realloc(list->items, (list->count + 1) * sizeof *items) : NULL;
    if (items == NULL) {
        free(item);
        return config_out_of_memory();
    }
    list->items = items;
    list->items[list->count++] = item;
    return EXIT_OK;
}

void string_list_free(struct string_list *list)
{
    for (size_t index = 0; index < list->count; index++)
        free(list->items[index]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

char *config_item_copy(const char *text, size_t length, bool expand)
{
    return expand ? path_expand(text, length) : strndup(text, length);
}

/* Whether the byte at INDEX ends the piece that began at START: one of SEPARATORS, but not the
   ':' of an "s3://" data path entry. */
static bool piece_ends(const char *text, size_t length, size_t start, size_t index,
                       const char *separators)
{
    if (index == length)
        return true;
    if (strchr(separators, text[index]) == NULL)
        return false;
    return !(text[index] == ':' && index - start == 2 && strncmp(text + start, "s3", 2) == 0 &&
             length - index > 2 && strncmp(text + index, "://", 3) == 0);
}

/* Adds each non-empty piece of TEXT between SEPARATORS. */
int string_list_split(struct string_list *list, const char *text, size_t length,
                      const char *separators, bool expand)
{
    size_t start = 0;
    for (size_t index = 0; index <= length; index++) {
        if (!piece_ends(text, length, start, index, separators))
            continue;
        if (index > start) {
            int status =
                string_list_add(list, config_item_copy(text + start, index - start, expand));
            if (status != EXIT_OK)
                return status;
        }
        start = index + 1;
    }
    return EXIT_OK;
}

size_t string_list_piece_count(const char *text, size_t length, const char *separators)
{
    size_t count = 0;
    for (size_t index = 0; index < length; index++)
        if (strchr(separators, text[index]) == NULL &&
            (index == 0 || strchr(separators, text[index - 1]) != NULL))
            count++;
    return count;
}
