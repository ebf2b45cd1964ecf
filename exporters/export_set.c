/* Stages an export's files in a hidden, locked directory and publishes them when all are whole. */
#include "export_set.h"

#include "common/base/directory.h"
#include "common/base/error.h"

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

static const char lock_name[] = ".lock";

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *walk)
{
    (void)status;
    (void)type;
    (void)walk;
    return remove(path);
}

static void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A write lock on the staging's lock file; -1 when another process holds it. */
static int lock_staging(const char *staging, int flags)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", staging, lock_name);
    int descriptor = open(path, flags | O_RDWR | O_CLOEXEC, 0600);
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (descriptor >= 0 && fcntl(descriptor, F_OFD_SETLK, &lock) != 0) {
        close(descriptor);
        return -1;
    }
    return descriptor;
}

/* Removes DIRECTORY/.LABEL.export.* left by killed exports: their lock is free. */
static void remove_killed_stagings(const char *directory, const char *label)
{
    char prefix[512];
    snprintf(prefix, sizeof prefix, ".%s.export.", label);
    DIR *listing = opendir(directory);
    struct dirent *entry;
    while (listing != NULL && (entry = readdir(listing)) != NULL) {
        if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0 ||
            strlen(entry->d_name) != strlen(prefix) + 6)
            continue;
        char path[4800];
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        int descriptor = lock_staging(path, 0);
        if (descriptor >= 0) {
            remove_tree(path);
            close(descriptor);
        }
    }
    if (listing != NULL)
        closedir(listing);
}

int export_set_begin(struct export_set *set, const char *directory, const char *label)
{
    *set = (struct export_set){.lock_descriptor = -1};
    snprintf(set->directory, sizeof set->directory, "%s", directory);
    if (directory_create(directory) != EXIT_OK)
        return error_code();
    remove_killed_stagings(directory, label);
    int length = snprintf(set->staging, sizeof set->staging, "%s/.%s.export.XXXXXX", directory,
                          label);
    if (length >= (int)sizeof set->staging || mkdtemp(set->staging) == NULL) {
        int failure = errno;
        set->staging[0] = '\0';
        return error_set(EXIT_WRITE, "cannot write: %s: %s", directory, strerror(failure));
    }
    set->lock_descriptor = lock_staging(set->staging, O_CREAT | O_EXCL);
    if (set->lock_descriptor < 0) {
        export_set_abort(set);
        return error_set(EXIT_WRITE, "cannot write: %s: cannot lock the staging", directory);
    }
    return EXIT_OK;
}

static int remember_entry(struct export_set *set, const char *entry)
{
    size_t length = strcspn(entry, "/");
    const char *last = set->entry_count ? set->entries[set->entry_count - 1] : "";
    if (strlen(last) == length && strncmp(last, entry, length) == 0)
        return EXIT_OK;
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
    for (char *slash = path + strlen(set->staging) + 1; (slash = strchr(slash, '/')) != NULL;
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
    if ((size_t)snprintf(path, size, "%s/%s", set->staging, entry) >= size)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: path too long", set->directory, entry);
    int result = remember_entry(set, entry);
    return result == EXIT_OK ? parents_create(set, path) : result;
}

/* Moves the staged ENTRY over its final name. A directory already there is exchanged with the
   staged one in a single step, then the earlier one (now in the staging) is removed. */
static int entry_publish(const struct export_set *set, const char *entry)
{
    char staged[4400], final[4400];
    snprintf(staged, sizeof staged, "%s/%s", set->staging, entry);
    snprintf(final, sizeof final, "%s/%s", set->directory, entry);
    struct stat staged_status, final_status;
    bool exchange = stat(staged, &staged_status) == 0 && S_ISDIR(staged_status.st_mode) &&
                    lstat(final, &final_status) == 0 && S_ISDIR(final_status.st_mode);
    if (exchange && renameat2(AT_FDCWD, staged, AT_FDCWD, final, RENAME_EXCHANGE) == 0) {
        remove_tree(staged);
        return EXIT_OK;
    }
    if (!exchange && rename(staged, final) == 0)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "cannot write: %s: %s", final, strerror(errno));
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
    int result = sync_staging(set->staging);
    for (size_t index = 0; result == EXIT_OK && index < set->entry_count; index++)
        result = entry_publish(set, set->entries[index]);
    if (result == EXIT_OK) {
        int descriptor = open(set->directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (descriptor >= 0) {
            fsync(descriptor);
            close(descriptor);
        }
    }
    export_set_abort(set);
    return result;
}

void export_set_abort(struct export_set *set)
{
    if (set->staging[0] != '\0')
        remove_tree(set->staging);
    set->staging[0] = '\0';
    if (set->lock_descriptor >= 0)
        close(set->lock_descriptor);
    set->lock_descriptor = -1;
    for (size_t index = 0; index < set->entry_count; index++)
        free(set->entries[index]);
    free(set->entries);
    set->entries = NULL;
    set->entry_count = set->entry_capacity = 0;
}
