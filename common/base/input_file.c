/* Opens inputs as regular files only, never blocking: O_NONBLOCK, then fstat. */
#include "input_file.h"

#include "error.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const char *kind_name(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "not a file";
}

int input_not_regular(const char *path, const struct stat *status)
{
    return error_set(EXIT_CORRUPT_INPUT, "not a regular file: %s: exists but is %s", path,
                     kind_name(status->st_mode));
}

static int open_failure(const char *path, int code)
{
    struct stat status;
    if (code == ENOENT || code == ENOTDIR)
        return error_set(EXIT_MISSING_INPUT, "not found: %s", path);
    if (stat(path, &status) == 0 && !S_ISREG(status.st_mode))
        return input_not_regular(path, &status);
    return error_set(EXIT_MISSING_INPUT, "cannot open: %s: %s", path, strerror(code));
}

int input_file_open(const char *path, struct stat *status)
{
    struct stat own;
    struct stat *facts = status != NULL ? status : &own;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (descriptor < 0) {
        int code = errno;
        open_failure(path, code);
        errno = code;
        return -1;
    }
    int flags = fcntl(descriptor, F_GETFL);
    if (fstat(descriptor, facts) != 0 || !S_ISREG(facts->st_mode) || flags < 0 ||
        fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int code = errno;
        bool regular = S_ISREG(facts->st_mode);
        close(descriptor);
        if (!regular)
            input_not_regular(path, facts);
        else
            error_set(EXIT_MISSING_INPUT, "cannot open: %s: %s", path, strerror(code));
        return -1;
    }
    return descriptor;
}

int input_open_failure(const char *path)
{
    if (error_code() == EXIT_CORRUPT_INPUT)
        return error_code();
    return error_set(EXIT_MISSING_INPUT, "cannot open: %s: %s", path, strerror(errno));
}

FILE *input_file_stream(const char *path)
{
    int descriptor = input_file_open(path, NULL);
    FILE *stream = descriptor >= 0 ? fdopen(descriptor, "rb") : NULL;
    if (descriptor >= 0 && stream == NULL) {
        int code = errno;
        error_set(EXIT_OTHER, "cannot open: %s: %s", path, strerror(code));
        close(descriptor);
        errno = code;
    }
    return stream;
}

int input_file_check(const char *path, int *missing)
{
    struct stat status;
    *missing = 0;
    if (stat(path, &status) != 0) {
        *missing = errno == ENOENT || errno == ENOTDIR;
        return open_failure(path, errno);
    }
    return S_ISREG(status.st_mode) ? EXIT_OK : input_not_regular(path, &status);
}
