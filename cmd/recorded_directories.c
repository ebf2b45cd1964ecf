/* The folders a file's provenance records its inputs were read from (see recorded_directories.h). */
#include "recorded_directories.h"

#include "common/base/error.h"
#include "recorded_command.h"

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool pasteable(const char *text)
{
    if (text == NULL || text[0] == '\0' || strlen(text) >= PATH_MAX)
        return false;
    for (const unsigned char *character = (const unsigned char *)text; *character; character++)
        if (*character < 0x20 || *character == 0x7f)
            return false;
    return true;
}

static void folder_add(struct recorded_directories *folders, const char *folder)
{
    if (!pasteable(folder) || folders->count == RECORDED_DIRECTORIES_MAX)
        return;
    for (size_t index = 0; index < folders->count; index++)
        if (strcmp(folders->items[index], folder) == 0)
            return;
    char *copy = strdup(folder);
    if (copy != NULL)
        folders->items[folders->count++] = copy;
}

/* The -d DIR, -dDIR, --directory DIR and --directory=DIR values of the command's arguments. */
static void directory_options(const struct recorded_command *recorded,
                              struct recorded_directories *folders)
{
    for (int index = recorded->offset + 1; index < recorded->argc; index++) {
        const char *word = recorded->argv[index];
        if (strcmp(word, "--") == 0)
            return;
        if ((strcmp(word, "-d") == 0 || strcmp(word, "--directory") == 0) &&
            index + 1 < recorded->argc)
            folder_add(folders, recorded->argv[++index]);
        else if (strncmp(word, "--directory=", 12) == 0)
            folder_add(folders, word + 12);
        else if (strncmp(word, "-d", 2) == 0 && word[2] != '\0' && word[1] != '-')
            folder_add(folders, word + 2);
    }
}

/* The folder of the spec fuel pack was given. */
static void spec_folder(const struct recorded_command *recorded,
                        struct recorded_directories *folders)
{
    const char *positionals[2] = {NULL, NULL};
    bool help = false;
    int offset = recorded->offset + 1;
    if (command_positionals(recorded->command->line, recorded->argc - offset,
                            recorded->argv + offset, positionals, &help) == 0 ||
        !pasteable(positionals[0]))
        return;
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", positionals[0]);
    folder_add(folders, dirname(copy));
}

void recorded_directories_read(const char *provenance, struct recorded_directories *folders)
{
    *folders = (struct recorded_directories){0};
    struct recorded_command recorded;
    if (provenance != NULL && recorded_command_read(provenance, &recorded) == EXIT_OK &&
        recorded.command != NULL) {
        if (strcmp(recorded.name, "pack") == 0)
            spec_folder(&recorded, folders);
        else
            directory_options(&recorded, folders);
    }
    if (provenance != NULL)
        recorded_command_free(&recorded);
    error_clear();
}

void recorded_directories_free(struct recorded_directories *folders)
{
    for (size_t index = 0; index < folders->count; index++)
        free(folders->items[index]);
    *folders = (struct recorded_directories){0};
}

void recorded_directories_hint(FILE *stream, const struct recorded_directories *folders)
{
    if (folders->count == 0)
        return;
    fprintf(stream, "; the file records them in ");
    for (size_t index = 0; index < folders->count; index++)
        fprintf(stream, "%s%s", index ? ", " : "", folders->items[index]);
    fprintf(stream, " (give -d %s, or --recorded-dirs)", folders->items[0]);
}

/* Whether FOLDER is one of DIRECTORIES (the same folder, by its real path where it has one). */
static bool searched(const char *folder, const char *const *directories, size_t count)
{
    char real[PATH_MAX], other[PATH_MAX];
    bool resolved = realpath(folder, real) != NULL;
    for (size_t index = 0; index < count; index++)
        if (strcmp(folder, directories[index]) == 0 ||
            (resolved && realpath(directories[index], other) != NULL && strcmp(real, other) == 0))
            return true;
    return false;
}

void recorded_directories_drop_searched(struct recorded_directories *folders,
                                        const char *const *directories, size_t count)
{
    size_t kept = 0;
    for (size_t index = 0; index < folders->count; index++)
        if (searched(folders->items[index], directories, count))
            free(folders->items[index]);
        else
            folders->items[kept++] = folders->items[index];
    folders->count = kept;
}
