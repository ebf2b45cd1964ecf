/* Opens inputs as regular files only, never blocking: O_NONBLOCK, then fstat; reads them feeding
   their taps (read_tap.h). */
#include "input_file.h"

#include "error.h"
#include "read_tap.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

const char *input_kind_name(mode_t mode)
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
                     input_kind_name(status->st_mode));
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
    read_tap_attach(descriptor, facts);
    return descriptor;
}

ssize_t input_file_read(int descriptor, void *buffer, size_t size)
{
    ssize_t count;
    do
        count = read(descriptor, buffer, size);
    while (count < 0 && errno == EINTR);
    if (count > 0 && read_tap_attached(descriptor)) {
        off_t end = lseek(descriptor, 0, SEEK_CUR);
        if (end >= count)
            read_tap_bytes(descriptor, buffer, (size_t)count, (uint64_t)(end - count));
    }
    return count;
}

ssize_t input_file_pread(int descriptor, void *buffer, size_t size, off_t offset)
{
    ssize_t count;
    do
        count = pread(descriptor, buffer, size, offset);
    while (count < 0 && errno == EINTR);
    if (count > 0)
        read_tap_bytes(descriptor, buffer, (size_t)count, (uint64_t)offset);
    return count;
}

bool input_file_tapped(int descriptor)
{
    return read_tap_attached(descriptor);
}

int input_file_close(int descriptor)
{
    read_tap_detach(descriptor);
    return close(descriptor);
}

int input_open_failure(const char *path)
{
    if (error_code() == EXIT_CORRUPT_INPUT)
        return error_code();
    return error_set(EXIT_MISSING_INPUT, "cannot open: %s: %s", path, strerror(errno));
}

/* A stream's cookie is its descriptor: reads go through input_file_read, so they feed its tap. */
static ssize_t stream_read(void *cookie, char *buffer, size_t size)
{
    return input_file_read((int)(intptr_t)cookie, buffer, size);
}

static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    off_t reached = lseek((int)(intptr_t)cookie, (off_t)*offset, whence);
    if (reached < 0)
        return -1;
    *offset = reached;
    return 0;
}

static int stream_close(void *cookie)
{
    return input_file_close((int)(intptr_t)cookie);
}

FILE *input_file_stream_status(const char *path, struct stat *status)
{
    int descriptor = input_file_open(path, status);
    cookie_io_functions_t functions = {stream_read, NULL, stream_seek, stream_close};
    FILE *stream =
        descriptor >= 0 ? fopencookie((void *)(intptr_t)descriptor, "rb", functions) : NULL;
    if (descriptor >= 0 && stream == NULL) {
        int code = errno;
        error_set(EXIT_OTHER, "cannot open: %s: %s", path, strerror(code));
        input_file_close(descriptor);
        errno = code;
    }
    if (stream != NULL) /* reads of 256 KiB: few calls, and blocks worth handing to the hasher */
        setvbuf(stream, NULL, _IOFBF, 1 << 18);
    return stream;
}

FILE *input_file_stream(const char *path)
{
    return input_file_stream_status(path, NULL);
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
