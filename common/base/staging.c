/* Creates, locks, names and removes the staging directories of every staged output (staging.h);
   tells a killed process's from a live one. */
#include "staging.h"

#include "error.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void lock_path_of(const char *path, char *lock_path, size_t size)
{
    snprintf(lock_path, size, "%s/%s", path, STAGING_LOCK_NAME);
}

/* Removes every file below the staging except its lock file (kept until the end, so that a
   staging killed while being removed still shows its lock and is known for a dead one). */
static int remove_below(const char *path, const struct stat *status, int type, struct FTW *walk)
{
    (void)status;
    (void)type;
    if (walk->level == 0 || (walk->level == 1 && strcmp(path + walk->base, STAGING_LOCK_NAME) == 0))
        return 0;
    remove(path);
    return 0;
}

static void remove_path(const char *path, int lock)
{
    char lock_path[4200];
    nftw(path, remove_below, 16, FTW_DEPTH | FTW_PHYS);
    lock_path_of(path, lock_path, sizeof lock_path);
    unlink(lock_path);
    rmdir(path);
    if (lock >= 0)
        close(lock);
}

static bool names_open_file(const char *path, int descriptor)
{
    struct stat opened, named;
    return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0 &&
           opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

/* Locks DESCRIPTOR (of LOCK_PATH); false with errno EAGAIN when held elsewhere, ENOENT when the
   file is no longer named LOCK_PATH. */
static bool lock_whole_file(int descriptor, const char *lock_path, bool wait)
{
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int locked;
    while ((locked = fcntl(descriptor, wait ? F_OFD_SETLKW : F_OFD_SETLK, &lock)) != 0 &&
           errno == EINTR)
        continue;
    if (locked != 0) {
        errno = errno == EACCES ? EAGAIN : errno;
        return false;
    }
    if (names_open_file(lock_path, descriptor))
        return true;
    errno = ENOENT;
    return false;
}

/* DESCRIPTOR of LOCK_PATH once locked, with UNLOCKED_KEPT also when the file system has no locks;
   otherwise closed: -1 with errno EAGAIN (held elsewhere) or ENOENT (gone). */
static int locked_or_closed(int descriptor, const char *lock_path, bool wait, bool unlocked_kept)
{
    if (descriptor < 0 || lock_whole_file(descriptor, lock_path, wait) ||
        (unlocked_kept && errno != EAGAIN && errno != ENOENT))
        return descriptor;
    int failure = errno;
    close(descriptor);
    errno = failure;
    return -1;
}

/* The lock file of the new directory PATH, created and locked; -1 with errno EAGAIN or ENOENT
   when a fuel clean took or removed it first. */
static int create_locked(const char *path)
{
    char lock_path[4200];
    lock_path_of(path, lock_path, sizeof lock_path);
    int descriptor = open(lock_path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
    return locked_or_closed(descriptor, lock_path, false, true);
}

int staging_create(struct staging *staging, const char *directory, const char *what)
{
    char template[sizeof staging->path];
    staging->lock = -1;
    int failure = ENAMETOOLONG;
    bool fits = (size_t)snprintf(template, sizeof template, "%s/%s%s.XXXXXX", directory,
                                 STAGING_PREFIX, what) < sizeof template - 8;
    for (int attempt = 0; attempt < 16 && fits; attempt++) {
        snprintf(staging->path, sizeof staging->path, "%s", template);
        if (mkdtemp(staging->path) == NULL) {
            failure = errno;
            break;
        }
        if ((staging->lock = create_locked(staging->path)) >= 0)
            return EXIT_OK;
        failure = errno;
        if (failure != EAGAIN && failure != ENOENT) {
            remove_path(staging->path, -1);
            break;
        }
    }
    staging->path[0] = '\0';
    error_set(EXIT_WRITE, "cannot write in %s: %s", directory, strerror(failure));
    errno = failure;
    return EXIT_WRITE;
}

void staging_remove(struct staging *staging)
{
    char *slash = strrchr(staging->path, '/');
    if (slash != NULL) {
        /* A failure names the directory the files were to be published in. */
        *slash = '\0';
        char directory[sizeof staging->path];
        snprintf(directory, sizeof directory, "%s", slash == staging->path ? "/" : staging->path);
        *slash = '/';
        error_path_replace(staging->path, directory);
    }
    if (staging->path[0] != '\0')
        remove_path(staging->path, staging->lock);
    else if (staging->lock >= 0)
        close(staging->lock);
    staging->path[0] = '\0';
    staging->lock = -1;
}

int staging_lock(const char *path, bool wait)
{
    char lock_path[4200];
    lock_path_of(path, lock_path, sizeof lock_path);
    int descriptor = open(lock_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    return locked_or_closed(descriptor, lock_path, wait, false);
}

/* Whether NAME ends in "." and six letters or digits (mkdtemp's XXXXXX) after LENGTH bytes. */
static bool random_suffix(const char *name, size_t length)
{
    if (strlen(name) != length + 7 || name[length] != '.')
        return false;
    for (const char *letter = name + length + 1; *letter != '\0'; letter++)
        if (!isalnum((unsigned char)*letter))
            return false;
    return true;
}

static bool committed_suffix(const char *name, size_t length)
{
    return strcmp(name + length, STAGING_COMMITTED_SUFFIX) == 0;
}

bool staging_is_name(const char *name)
{
    size_t prefix = strlen(STAGING_PREFIX), length = strlen(name);
    if (strncmp(name, STAGING_PREFIX, prefix) != 0 || strchr(name, '/') != NULL)
        return false;
    size_t committed = strlen(STAGING_COMMITTED_SUFFIX);
    return (length > prefix + 7 && random_suffix(name, length - 7)) ||
           (length > prefix + committed && committed_suffix(name, length - committed));
}

bool staging_is_name_of(const char *name, const char *what)
{
    size_t prefix = strlen(STAGING_PREFIX), length = strlen(what);
    return strncmp(name, STAGING_PREFIX, prefix) == 0 &&
           strncmp(name + prefix, what, length) == 0 && random_suffix(name, prefix + length);
}

int staging_committed_path(const char *directory, const char *what, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "%s/%s%s%s", directory, STAGING_PREFIX, what,
                         STAGING_COMMITTED_SUFFIX) >= size)
        return error_set(EXIT_WRITE, "cannot write: %s/%s%s%s: name too long", directory,
                         STAGING_PREFIX, what, STAGING_COMMITTED_SUFFIX);
    return EXIT_OK;
}

bool staging_committed_what(const char *name, char *what, size_t size)
{
    size_t prefix = strlen(STAGING_PREFIX), length = strlen(name);
    size_t committed = strlen(STAGING_COMMITTED_SUFFIX);
    if (strncmp(name, STAGING_PREFIX, prefix) != 0 || length <= prefix + committed ||
        !committed_suffix(name, length - committed) || length - prefix - committed >= size)
        return false;
    snprintf(what, size, "%.*s", (int)(length - prefix - committed), name + prefix);
    return true;
}

static bool directory_empty(const char *path)
{
    DIR *listing = opendir(path);
    size_t count = 0;
    for (struct dirent *entry; listing != NULL && (entry = readdir(listing)) != NULL;)
        count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    if (listing != NULL)
        closedir(listing);
    return listing != NULL && count == 0;
}

int staging_remove_dead(const char *path, bool dry_run, bool *removed)
{
    struct stat status;
    *removed = false;
    if (lstat(path, &status) != 0 || !S_ISDIR(status.st_mode))
        return EXIT_OK;
    int lock = staging_lock(path, false);
    if (lock < 0 && errno != ENOENT && errno != EAGAIN && errno != ELOOP)
        return error_set(EXIT_WRITE, "cannot clean: %s: cannot lock: %s", path, strerror(errno));
    if (lock < 0 && errno == ENOENT) {
        *removed = dry_run ? directory_empty(path) : rmdir(path) == 0;
    } else if (lock >= 0) {
        *removed = true;
        if (dry_run)
            close(lock);
        else
            remove_path(path, lock);
    }
    return EXIT_OK;
}
