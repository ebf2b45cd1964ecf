/* Finds extra converters: executables named fuel-convert-NAME in the configured directories. */
#include "extra.h"

#include "common/base/dataset_name.h"
#include "common/base/error.h"
#include "downloaders/dataset_registry.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int named_converter(const struct dirent *entry)
{
    size_t prefix = strlen(EXTRA_CONVERTER_PREFIX);
    return strncmp(entry->d_name, EXTRA_CONVERTER_PREFIX, prefix) == 0 &&
           dataset_name_valid(entry->d_name + prefix);
}

static bool executable_file(const char *path)
{
    struct stat status;
    return stat(path, &status) == 0 && S_ISREG(status.st_mode) && access(path, X_OK) == 0;
}

static bool builtin_converter(const char *name)
{
    for (size_t index = 0; datasets[index] != NULL; index++)
        if (strcmp(datasets[index]->name, name) == 0 && dataset_converts(datasets[index]))
            return true;
    return false;
}

/* Adds DIRECTORY/FILE unless it is no executable; a clash is an error, as in Fuel. */
static int converter_add(struct extra_converters *found, const char *directory, const char *file)
{
    const char *name = file + strlen(EXTRA_CONVERTER_PREFIX);
    const char *separator = directory[strlen(directory) - 1] == '/' ? "" : "/";
    char *path;
    if (asprintf(&path, "%s%s%s", directory, separator, file) < 0)
        return error_set(EXIT_OTHER, "cannot list extra converters: out of memory");
    if (!executable_file(path)) {
        free(path);
        return EXIT_OK;
    }
    const struct extra_converter *other = extra_converter_find(found, name);
    int result = EXIT_OK;
    if (builtin_converter(name))
        result = error_set(EXIT_USAGE, "name clash: %s: %s is a built-in converter", path, name);
    else if (other != NULL)
        result = error_set(EXIT_USAGE, "name clash: %s: %s is also %s", path, name, other->path);
    struct extra_converter *grown =
        result == EXIT_OK ? realloc(found->items, (found->count + 1) * sizeof *grown) : NULL;
    if (result == EXIT_OK && grown == NULL)
        result = error_set(EXIT_OTHER, "cannot list extra converters: out of memory");
    if (result != EXIT_OK) {
        free(path);
        return result;
    }
    found->items = grown;
    found->items[found->count] = (struct extra_converter){.name = strdup(name), .path = path};
    if (found->items[found->count].name == NULL) {
        free(path);
        return error_set(EXIT_OTHER, "cannot list extra converters: out of memory");
    }
    found->count++;
    return EXIT_OK;
}

static int directory_scan(struct extra_converters *found, const char *directory)
{
    struct dirent **entries;
    int count = scandir(directory, &entries, named_converter, alphasort), result = EXIT_OK;
    if (count < 0)
        return error_set(EXIT_USAGE, "cannot list extra converters: %s: %s", directory,
                         strerror(errno));
    for (int index = 0; index < count; index++) {
        if (result == EXIT_OK)
            result = converter_add(found, directory, entries[index]->d_name);
        free(entries[index]);
    }
    free(entries);
    return result;
}

int extra_converters_find(struct extra_converters *found, char *const *directories, size_t count)
{
    *found = (struct extra_converters){0};
    for (size_t index = 0; index < count; index++) {
        int result = directory_scan(found, directories[index]);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

const struct extra_converter *extra_converter_find(const struct extra_converters *found,
                                                   const char *name)
{
    for (size_t index = 0; index < found->count; index++)
        if (strcmp(found->items[index].name, name) == 0)
            return &found->items[index];
    return NULL;
}

void extra_converters_free(struct extra_converters *found)
{
    for (size_t index = 0; index < found->count; index++) {
        free(found->items[index].name);
        free(found->items[index].path);
    }
    free(found->items);
    *found = (struct extra_converters){0};
}
