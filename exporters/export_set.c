/* Stages an export's files in a hidden, locked directory and publishes them when all are whole. */
#include "export_set.h"

#include "common/base/directory.h"
#include "common/base/error.h"
#include "set_manifest.h"
#include "set_publish.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Removes DIRECTORY/.fuel-staging-LABEL.XXXXXX left by killed exports: their lock is free. */
static void remove_killed_stagings(const char *directory, const char *label)
{
    DIR *listing = opendir(directory);
    struct dirent *entry;
    while (listing != NULL && (entry = readdir(listing)) != NULL) {
        if (!staging_is_name_of(entry->d_name, label))
            continue;
        char path[4800];
        bool removed;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        staging_remove_dead(path, false, &removed);
    }
    if (listing != NULL)
        closedir(listing);
}

int export_set_begin(struct export_set *set, const char *directory, const char *label)
{
    *set = (struct export_set){.staging.lock = -1};
    snprintf(set->directory, sizeof set->directory, "%s", directory);
    snprintf(set->label, sizeof set->label, "%s", label);
    bool finished;
    int result = directory_create(directory);
    if (result == EXIT_OK)
        result = set_publish_finish_dead(directory, label, false, &finished);
    if (result != EXIT_OK)
        return result;
    remove_killed_stagings(directory, label);
    return staging_create(&set->staging, directory, label);
}

static int remember_entry(struct export_set *set, const char *entry)
{
    size_t length = strcspn(entry, "/");
    const char *last = set->entry_count ? set->entries[set->entry_count - 1] : "";
    if (strlen(last) == length && strncmp(last, entry, length) == 0)
        return EXIT_OK;
    char top[4096];
    snprintf(top, sizeof top, "%.*s", (int)length, entry);
    if (!set_entry_name_valid(top))
        return error_set(EXIT_WRITE, "cannot write: %s/%s: not a name a set can hold",
                         set->directory, entry);
    if (set->entry_count == set->entry_capacity) {
        size_t capacity = set->entry_capacity ? 2 * set->entry_capacity : 16;
        char **grown = realloc(set->entries, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot stage %s: out of memory", entry);
        set->entries = grown;
        set->entry_capacity = capacity;
    }
    if ((set->entries[set->entry_count] = strndup(entry, length)) == NULL)
        return error_set(EXIT_OTHER, "cannot stage %s: out of memory", entry);
    set->entry_count++;
    return EXIT_OK;
}

/* Creates the directories of PATH below the staging (mkdir -p of its parent). */
static int parents_create(const struct export_set *set, char *path)
{
    for (char *slash = path + strlen(set->staging.path) + 1; (slash = strchr(slash, '/')) != NULL;
         slash++) {
        *slash = '\0';
        int failed = mkdir(path, 0755) != 0 && errno != EEXIST;
        *slash = '/';
        if (failed)
            return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    }
    return EXIT_OK;
}

int export_set_path(struct export_set *set, const char *entry, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "%s/%s", set->staging.path, entry) >= size)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: path too long", set->directory, entry);
    int result = remember_entry(set, entry);
    return result == EXIT_OK ? parents_create(set, path) : result;
}

/* fsync of every staged file and directory; past this many files, one syncfs of the filesystem
   costs less than a journal commit per file (image lists hold a file per example). */
enum { FSYNC_MAX_FILES = 1024 };
static size_t staged_files;
static int staged_failures;

static int count_entry(const char *path, const struct stat *status, int type, struct FTW *walk)
{
    (void)path;
    (void)status;
    (void)walk;
    staged_files += type == FTW_F;
    return staged_files > FSYNC_MAX_FILES;
}

static int sync_entry(const char *path, const struct stat *status, int type, struct FTW *walk)
{
    (void)status;
    (void)walk;
    int descriptor = open(path, (type == FTW_DP ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC);
    staged_failures += descriptor < 0 || fsync(descriptor) != 0;
    if (descriptor >= 0)
        close(descriptor);
    return 0;
}

static int sync_staging(const char *path)
{
    staged_files = 0;
    staged_failures = 0;
    if (nftw(path, count_entry, 16, FTW_PHYS) == 0) {
        nftw(path, sync_entry, 16, FTW_DEPTH | FTW_PHYS);
    } else {
        int descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        staged_failures += descriptor < 0 || syncfs(descriptor) != 0;
        if (descriptor >= 0)
            close(descriptor);
    }
    return staged_failures ? error_set(EXIT_WRITE, "cannot write: %s: sync failed", path) : EXIT_OK;
}

int export_set_commit(struct export_set *set)
{
    int staging = open(set->staging.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int result = staging >= 0 ? set_manifest_write(staging, set->staging.path, set->entries,
                                                   set->entry_count)
                              : error_set(EXIT_WRITE, "cannot write: %s: %s", set->staging.path,
                                          strerror(errno));
    if (staging >= 0)
        close(staging);
    if (result == EXIT_OK)
        result = sync_staging(set->staging.path);
    if (result == EXIT_OK)
        result = set_publish_commit(&set->staging, set->directory, set->label);
    export_set_abort(set);
    return result;
}

void export_set_abort(struct export_set *set)
{
    staging_remove(&set->staging);
    for (size_t index = 0; index < set->entry_count; index++)
        free(set->entries[index]);
    free(set->entries);
    set->entries = NULL;
    set->entry_count = set->entry_capacity = 0;
}
