/* Opens inputs as regular files only, never blocking: O_NONBLOCK, then fstat; reads them feeding
   their taps (read_tap.h). */
#include "input_file.h"

#include "error.h"
#include "read_tap.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Reads of 256 KiB: few calls, and blocks worth handing to the hasher. */
enum { STREAM_BUFFER = 1 << 18 };

/* A stream's cookie: reads go through input_file_read, so they feed its tap. The buffer is the
   stream's own because glibc's setvbuf ignores the size it is given without one (a stream from
   fopencookie then reads 8 KiB at a time: 30,000 reads for SVHN's 250 MB). */
struct stream_cookie {
    int descriptor;
    char buffer[STREAM_BUFFER];
};

static ssize_t stream_read(void *cookie, char *buffer, size_t size)
{
    return input_file_read(((struct stream_cookie *)cookie)->descriptor, buffer, size);
}

static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    off_t reached = lseek(((struct stream_cookie *)cookie)->descriptor, (off_t)*offset, whence);
    if (reached < 0)
        return -1;
    *offset = reached;
    return 0;
}

/* fclose touches no byte of the buffer once it has called this. */
static int stream_close(void *cookie)
{
    int result = input_file_close(((struct stream_cookie *)cookie)->descriptor);
    free(cookie);
    return result;
}

static FILE *stream_open(const char *path, int descriptor)
{
    cookie_io_functions_t functions = {stream_read, NULL, stream_seek, stream_close};
    struct stream_cookie *cookie = malloc(sizeof *cookie);
    FILE *stream = cookie != NULL ? fopencookie(cookie, "rb", functions) : NULL;
    if (stream == NULL) {
        int code = cookie != NULL ? errno : ENOMEM;
        error_set(EXIT_OTHER, "cannot open: %s: %s", path, strerror(code));
        free(cookie);
        input_file_close(descriptor);
        errno = code;
        return NULL;
    }
    cookie->descriptor = descriptor;
    setvbuf(stream, cookie->buffer, _IOFBF, sizeof cookie->buffer);
    return stream;
}

FILE *input_file_stream_status(const char *path, struct stat *status)
{
    int descriptor = input_file_open(path, status);
    return descriptor >= 0 ? stream_open(path, descriptor) : NULL;
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
