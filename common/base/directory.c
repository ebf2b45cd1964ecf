/* Creates download directories and serializes the runs that write into one (flock). */
#include "directory.h"

#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int directory_create_one(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) {
        struct stat status;
        if (stat(path, &status) == 0 && S_ISDIR(status.st_mode))
            return EXIT_OK;
        return error_set(EXIT_WRITE, "cannot create directory: %s: %s", path,
                         errno == EEXIST ? "not a directory" : strerror(errno));
    }
    return error_set(EXIT_WRITE, "cannot create directory: %s: %s", path, strerror(errno));
}

int directory_create(const char *path)
{
    char partial[PATH_MAX];
    if (snprintf(partial, sizeof partial, "%s", path) >= (int)sizeof partial)
        return error_set(EXIT_WRITE, "cannot create directory: %s: name too long", path);
    for (char *slash = strchr(partial + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int result = directory_create_one(partial);
        *slash = '/';
        if (result != EXIT_OK)
            return result;
    }
    return directory_create_one(partial);
}

int directory_lock(const char *directory, bool wait, int *descriptor, bool *busy)
{
    return directory_lock_file(directory, DIRECTORY_LOCK_NAME, wait, descriptor, busy);
}

int directory_lock_waiting(const char *directory, const char *waiting, int *descriptor)
{
    bool busy;
    int result = directory_lock(directory, false, descriptor, &busy);
    if (result == EXIT_OK && busy) {
        if (waiting != NULL)
            fprintf(stderr, "%s\n", waiting);
        result = directory_lock(directory, true, descriptor, &busy);
    }
    return result;
}

/* Whether DESCRIPTOR, just locked, is still the file at PATH: a holder unlinks the lock file
   before it releases it, so a run that was waiting on the unlinked file starts again. */
static bool still_linked(int descriptor, const char *path)
{
    struct stat held, named;
    return fstat(descriptor, &held) == 0 && stat(path, &named) == 0 &&
           held.st_ino == named.st_ino && held.st_dev == named.st_dev;
}

/* One attempt: *DESCRIPTOR locked (or -1 with *BUSY), or -1 with *STALE when the file was unlinked
   while this run waited. */
static int lock_once(const char *directory, const char *path, bool wait, int *descriptor,
                     bool *busy, bool *stale)
{
    int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock < 0)
        return error_set(EXIT_WRITE, "cannot write in %s: %s", directory, strerror(errno));
    while (flock(lock, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
        if (errno == EINTR)
            continue;
        int failure = errno;
        close(lock);
        if (failure == EWOULDBLOCK) {
            *busy = true;
            return EXIT_OK;
        }
        return error_set(EXIT_WRITE, "cannot lock: %s: %s", path, strerror(failure));
    }
    *stale = !still_linked(lock, path);
    if (*stale)
        close(lock);
    else
        *descriptor = lock;
    return EXIT_OK;
}

int directory_lock_file(const char *directory, const char *name, bool wait, int *descriptor,
                        bool *busy)
{
    char path[PATH_MAX];
    *busy = false;
    *descriptor = -1;
    if (snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
        return error_set(EXIT_WRITE, "cannot lock: %s: name too long", directory);
    bool stale = true;
    int result = EXIT_OK;
    while (result == EXIT_OK && stale && !*busy)
        result = lock_once(directory, path, wait, descriptor, busy, &stale);
    return result;
}

size_t directory_missing_prefix(const char *path)
{
    char partial[PATH_MAX];
    struct stat status;
    if (snprintf(partial, sizeof partial, "%s", path) >= (int)sizeof partial ||
        stat(path, &status) == 0)
        return 0;
    size_t missing = strlen(partial);
    for (char *slash = strrchr(partial, '/'); slash != NULL && slash != partial;
         slash = strrchr(partial, '/')) {
        *slash = '\0';
        if (stat(partial, &status) == 0)
            break;
        missing = strlen(partial);
    }
    return missing;
}

void directory_remove_created(const char *path, size_t missing)
{
    char partial[PATH_MAX];
    if (missing == 0 || snprintf(partial, sizeof partial, "%s", path) >= (int)sizeof partial)
        return;
    while (strlen(partial) >= missing && rmdir(partial) == 0) {
        char *slash = strrchr(partial, '/');
        if (slash == NULL || slash == partial)
            return;
        *slash = '\0';
    }
}

void directory_unlock(int descriptor, const char *directory, const char *name)
{
    char path[PATH_MAX];
    if (descriptor >= 0 && snprintf(path, sizeof path, "%s/%s", directory, name) < (int)sizeof path)
        unlink(path);
    if (descriptor >= 0)
        close(descriptor);
}
