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

int directory_lock_file(const char *directory, const char *name, bool wait, int *descriptor,
                        bool *busy)
{
    char path[PATH_MAX];
    *busy = false;
    *descriptor = -1;
    if (snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
        return error_set(EXIT_WRITE, "cannot lock: %s: name too long", directory);
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
    *descriptor = lock;
    return EXIT_OK;
}

void directory_unlock(int descriptor)
{
    if (descriptor >= 0)
        close(descriptor);
}
