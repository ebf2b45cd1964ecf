/* Copies a data path file to the local data path once, under a lock, and atomically. */
#include "local_cache.h"

#include "common/base/directory.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/input_file.h"
#include "common/base/publish.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { COPY_BLOCK = 1 << 20 };

static bool same_file_times(const struct stat *left, const struct stat *right)
{
    return left->st_size == right->st_size && left->st_mtim.tv_sec == right->st_mtim.tv_sec &&
           left->st_mtim.tv_nsec == right->st_mtim.tv_nsec;
}

/* Copies every byte of INPUT to OUTPUT with copy_file_range, read/write where it is refused. */
static int bytes_copy(int input, int output, const char *original, const char *copy)
{
    char *buffer = NULL;
    ssize_t copied;
    while ((copied = copy_file_range(input, NULL, output, NULL, COPY_BLOCK, 0)) > 0)
        ;
    if (copied < 0 && errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return error_set(EXIT_WRITE, "cannot copy: %s: %s", copy, strerror(errno));
    if (copied == 0)
        return EXIT_OK;
    if ((buffer = malloc(COPY_BLOCK)) == NULL)
        return error_set(EXIT_OTHER, "cannot copy: %s: out of memory", original);
    int result = EXIT_OK;
    ssize_t length;
    while (result == EXIT_OK && (length = read(input, buffer, COPY_BLOCK)) != 0) {
        if (length < 0 && errno != EINTR)
            result = error_set(EXIT_OTHER, "cannot read: %s: %s", original, strerror(errno));
        for (ssize_t done = 0, step; result == EXIT_OK && length > 0 && done < length; done += step)
            if ((step = write(output, buffer + done, (size_t)(length - done))) < 0)
                result = error_set(EXIT_WRITE, "cannot write: %s: %s", copy, strerror(errno));
    }
    free(buffer);
    return result;
}

/* Fills the temporary file of PUBLICATION from ORIGINAL and gives it ORIGINAL's times. */
static int copy_fill(const char *original, const struct stat *status,
                     const struct publication *publication)
{
    int input = open(original, O_RDONLY | O_CLOEXEC);
    if (input < 0)
        return error_set(EXIT_MISSING_INPUT, "cannot read: %s: %s", original, strerror(errno));
    int output = open(publication->temporary_path, O_WRONLY | O_CLOEXEC);
    int result = output < 0 ? error_set(EXIT_WRITE, "cannot write: %s: %s",
                                        publication->temporary_path, strerror(errno))
                            : bytes_copy(input, output, original, publication->temporary_path);
    struct timespec times[2] = {status->st_atim, status->st_mtim};
    if (result == EXIT_OK && futimens(output, times) != 0)
        result = error_set(EXIT_WRITE, "cannot set the time of: %s: %s",
                           publication->temporary_path, strerror(errno));
    if (output >= 0 && close(output) != 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", publication->temporary_path,
                           strerror(errno));
    close(input);
    return result;
}

static int copy_publish(const char *original, const struct stat *status, const char *directory,
                        const char *base)
{
    char shown[2 * PATH_MAX + 2];
    snprintf(shown, sizeof shown, "%s/%s", directory, base);
    struct publication publication;
    int result = disk_space_check(directory, shown, (uint64_t)status->st_size,
                                  (uint64_t)status->st_size);
    if (result == EXIT_OK)
        result = publish_begin(&publication, directory, base);
    if (result != EXIT_OK)
        return result;
    result = copy_fill(original, status, &publication);
    if (result == EXIT_OK)
        result = publish_commit(&publication);
    if (result != EXIT_OK)
        publish_abort(&publication);
    return result;
}

/* Under the lock: reuses a copy whose size and time match, else makes one. */
static int copy_or_reuse(const char *original, const char *path, enum cache_outcome *outcome)
{
    struct stat source, copy;
    if (stat(original, &source) != 0)
        return error_set(EXIT_MISSING_INPUT, "cannot cache: %s: %s", original, strerror(errno));
    if (!S_ISREG(source.st_mode))
        return input_not_regular(original, &source);
    if (stat(path, &copy) == 0 && S_ISREG(copy.st_mode) && same_file_times(&source, &copy)) {
        *outcome = CACHE_REUSED;
        return EXIT_OK;
    }
    char directory[PATH_MAX], base[PATH_MAX];
    snprintf(directory, sizeof directory, "%s", path);
    snprintf(base, sizeof base, "%s", path);
    *outcome = CACHE_COPIED;
    return copy_publish(original, &source, dirname(directory), basename(base));
}

int local_cache(const char *original, const char *local_directory, const char *name,
                char *local_path, size_t size, enum cache_outcome *outcome)
{
    int length = snprintf(local_path, size, "%s/%s", local_directory, name);
    if (length < 0 || (size_t)length >= size || (size_t)length >= PATH_MAX)
        return error_set(EXIT_WRITE, "cannot cache: %s/%s: path too long", local_directory, name);
    char directory[PATH_MAX];
    snprintf(directory, sizeof directory, "%s", local_path);
    char *parent = dirname(directory);
    int lock = -1, result = directory_create(parent);
    bool busy;
    if (result == EXIT_OK)
        result = directory_lock_file(parent, LOCAL_CACHE_LOCK_NAME, true, &lock, &busy);
    if (result == EXIT_OK)
        result = copy_or_reuse(original, local_path, outcome);
    directory_unlock(lock, parent, LOCAL_CACHE_LOCK_NAME);
    return result;
}
