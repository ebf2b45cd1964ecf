/* Lists a folder's entries sorted by name, files and folders told apart through links. */
#include "folder.h"

#include "common/base/error.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *folder_join(const char *path, const char *name)
{
    char *joined = NULL;
    if (asprintf(&joined, "%s/%s", path, name) < 0)
        return NULL;
    return joined;
}

static int compare_entries(const void *left, const void *right)
{
    const struct folder_entry *first = left, *second = right;
    return strcmp(first->name, second->name);
}

/* A regular file's directory entry says so: only folders, links and untyped entries are
   stat'ed (a folder's device and inode find cycles). */
static int entry_add(struct folder_listing *listing, const char *path, const char *name,
                     unsigned char type)
{
    if (listing->count == FOLDER_MAX_ENTRIES)
        return error_set(EXIT_CORRUPT_INPUT, "cannot list: %s: more than %u entries", path,
                         FOLDER_MAX_ENTRIES);
    if ((listing->count & (listing->count - 1)) == 0) {
        size_t capacity = listing->count == 0 ? 16 : listing->count * 2;
        struct folder_entry *grown = realloc(listing->entries, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        listing->entries = grown;
    }
    struct folder_entry *entry = &listing->entries[listing->count];
    *entry = (struct folder_entry){.name = strdup(name)};
    if (entry->name != NULL && type == DT_REG) {
        listing->count++;
        return EXIT_OK;
    }
    char *full = folder_join(path, name);
    if (entry->name == NULL || full == NULL) {
        free(entry->name);
        free(full);
        return error_set(EXIT_OTHER, "out of memory");
    }
    struct stat status;
    if (stat(full, &status) == 0) {
        entry->folder = S_ISDIR(status.st_mode);
        entry->device = status.st_dev;
        entry->inode = status.st_ino;
    }
    free(full);
    listing->count++;
    return EXIT_OK;
}

int folder_list(const char *path, struct folder_listing *listing)
{
    *listing = (struct folder_listing){0};
    DIR *folder = opendir(path);
    if (folder == NULL) {
        if (errno == ENOENT)
            return error_set(EXIT_MISSING_INPUT, "not found: %s", path);
        return error_set(EXIT_MISSING_INPUT, "cannot open folder: %s: %s", path, strerror(errno));
    }
    int result = EXIT_OK;
    struct dirent *entry;
    errno = 0;
    while (result == EXIT_OK && (entry = readdir(folder)) != NULL) {
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            result = entry_add(listing, path, entry->d_name, entry->d_type);
        errno = 0;
    }
    if (result == EXIT_OK && errno != 0)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot list: %s: %s", path, strerror(errno));
    closedir(folder);
    if (result != EXIT_OK) {
        folder_listing_free(listing);
        return result;
    }
    qsort(listing->entries, listing->count, sizeof *listing->entries, compare_entries);
    return EXIT_OK;
}

void folder_listing_free(struct folder_listing *listing)
{
    for (size_t index = 0; index < listing->count; index++)
        free(listing->entries[index].name);
    free(listing->entries);
    *listing = (struct folder_listing){0};
}
