/* Lists the visible regular files below a staging directory, sorted by name. */
#include "s3_staged_tree.h"

#include "common/base/error.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { DEPTH_LIMIT = 32 };

static int name_add(struct s3_staged_tree *tree, const char *name)
{
    if (tree->count == tree->capacity) {
        size_t capacity = tree->capacity ? 2 * tree->capacity : 32;
        char **grown = realloc(tree->names, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory listing the staged files");
        tree->names = grown;
        tree->capacity = capacity;
    }
    if ((tree->names[tree->count] = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory listing the staged files");
    tree->count++;
    return EXIT_OK;
}

/* Adds the files of ROOT/RELATIVE ("" for ROOT itself), descending into its directories. */
static int directory_walk(struct s3_staged_tree *tree, const char *root, const char *relative,
                          int depth)
{
    char path[8192];
    snprintf(path, sizeof path, "%s%s%s", root, relative[0] ? "/" : "", relative);
    DIR *listing = depth < DEPTH_LIMIT ? opendir(path) : NULL;
    if (listing == NULL)
        return error_set(EXIT_MISSING_INPUT, "cannot read: %s: %s", path, error_system_reason());
    int result = EXIT_OK;
    struct dirent *entry;
    while (result == EXIT_OK && (entry = readdir(listing)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        char name[8192];
        struct stat status;
        snprintf(name, sizeof name, "%s%s%s", relative, relative[0] ? "/" : "", entry->d_name);
        if (fstatat(dirfd(listing), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(status.st_mode))
            result = directory_walk(tree, root, name, depth + 1);
        else if (S_ISREG(status.st_mode))
            result = name_add(tree, name);
    }
    closedir(listing);
    return result;
}

static int name_order(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

int s3_staged_tree_list(struct s3_staged_tree *tree, const char *root)
{
    *tree = (struct s3_staged_tree){0};
    int result = directory_walk(tree, root, "", 0);
    if (result == EXIT_OK && tree->count > 1)
        qsort(tree->names, tree->count, sizeof *tree->names, name_order);
    if (result != EXIT_OK)
        s3_staged_tree_free(tree);
    return result;
}

void s3_staged_tree_free(struct s3_staged_tree *tree)
{
    for (size_t index = 0; index < tree->count; index++)
        free(tree->names[index]);
    free(tree->names);
    *tree = (struct s3_staged_tree){0};
}
