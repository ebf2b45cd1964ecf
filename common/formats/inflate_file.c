/* Reads a file through the inflater when it starts with gzip's magic bytes (see inflate_file.h). */
#include "inflate_file.h"

#include "common/base/error.h"
#include "inflate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads of at least BLOCK_SIZE bytes are inflated straight into the caller's buffer. */
enum { INPUT_SIZE = 1 << 18, BLOCK_SIZE = 1 << 18 };

struct inflate_file {
    int descriptor;
    bool compressed;
    bool ended; /* the content has ended: no byte left to read or inflate */
    uint64_t size;
    struct inflater *inflater;
    /* Plain files: the bytes read while looking for the magic, served first. */
    size_t input_offset, input_size;
    /* Inflated bytes not yet read, for reads smaller than a block. */
    size_t block_offset, block_size;
    /* A failure met after some bytes were inflated: reported once those have been read. */
    int failure;
    const char *reason;
    unsigned char input[INPUT_SIZE];
    unsigned char block[BLOCK_SIZE];
};

static int read_some(struct inflate_file *file, unsigned char *buffer, size_t size, size_t *count)
{
    ssize_t result;
    do
        result = read(file->descriptor, buffer, size);
    while (result < 0 && errno == EINTR);
    if (result < 0) {
        file->reason = strerror(errno);
        return EXIT_OTHER;
    }
    *count = (size_t)result;
    return EXIT_OK;
}

static int open_descriptor(struct inflate_file *file, const char *path, const char *what)
{
    file->descriptor = open(path, O_RDONLY | O_CLOEXEC);
    int failure = errno;
    struct stat status;
    if (file->descriptor >= 0 && fstat(file->descriptor, &status) != 0)
        failure = errno;
    else if (file->descriptor >= 0 && S_ISDIR(status.st_mode))
        failure = EISDIR;
    else if (file->descriptor >= 0) {
        file->size = S_ISREG(status.st_mode) ? (uint64_t)status.st_size : 0;
        return EXIT_OK;
    }
    bool missing = failure == ENOENT || failure == ENOTDIR || failure == EACCES ||
                   failure == ELOOP || failure == EISDIR;
    return error_set(missing ? EXIT_MISSING_INPUT : EXIT_OTHER, "%s: %s: %s", what, path,
                     strerror(failure));
}

/* Reads the first bytes and decides: gzip's magic 1f 8b, or a plain file. */
static int look_at_start(struct inflate_file *file, const char *path, const char *what)
{
    size_t count = 0, more;
    do {
        if (read_some(file, file->input + count, INPUT_SIZE - count, &more) != EXIT_OK)
            return error_set(EXIT_OTHER, "%s: %s: %s", what, path, file->reason);
        count += more;
    } while (more > 0 && count < 2);
    file->compressed = count >= 2 && file->input[0] == 0x1f && file->input[1] == 0x8b;
    if (!file->compressed) {
        file->input_size = count;
        return EXIT_OK;
    }
    if (inflater_create(&file->inflater, INFLATE_GZIP) != EXIT_OK)
        return error_set(EXIT_OTHER, "%s: %s: out of memory", what, path);
    inflater_feed(file->inflater, file->input, count);
    return EXIT_OK;
}

int inflate_file_open(struct inflate_file **file, const char *path, const char *what)
{
    *file = malloc(sizeof **file);
    if (*file == NULL)
        return error_set(EXIT_OTHER, "%s: %s: out of memory", what, path);
    memset(*file, 0, offsetof(struct inflate_file, input));
    int status = open_descriptor(*file, path, what);
    if (status == EXIT_OK)
        status = look_at_start(*file, path, what);
    if (status != EXIT_OK) {
        inflate_file_close(*file);
        *file = NULL;
    }
    return status;
}

bool inflate_file_compressed(const struct inflate_file *file)
{
    return file->compressed;
}

uint64_t inflate_file_size(const struct inflate_file *file)
{
    return file->size;
}

/* Inflates into BUFFER until it is full or the content ends. */
static int inflate_into(struct inflate_file *file, unsigned char *buffer, size_t size,
                        size_t *produced)
{
    *produced = 0;
    while (*produced < size && !file->ended && file->failure == EXIT_OK) {
        size_t count;
        enum inflate_status status =
            inflater_pull(file->inflater, buffer + *produced, size - *produced, &count);
        *produced += count;
        if (status == INFLATE_END) {
            file->ended = true;
        } else if (status == INFLATE_CORRUPT) {
            file->reason = inflater_reason(file->inflater);
            file->failure = EXIT_CORRUPT_INPUT;
        } else if (status == INFLATE_NEED_INPUT) {
            file->failure = read_some(file, file->input, INPUT_SIZE, &count);
            if (file->failure == EXIT_OK && count == 0)
                inflater_end_input(file->inflater);
            else if (file->failure == EXIT_OK)
                inflater_feed(file->inflater, file->input, count);
        }
    }
    return *produced > 0 ? EXIT_OK : file->failure;
}

/* Reads plain bytes: first those read while looking for the magic, then the file's. */
static int read_plain(struct inflate_file *file, unsigned char *buffer, size_t size, size_t *read)
{
    *read = 0;
    while (*read < size && !file->ended) {
        size_t count;
        if (file->input_offset < file->input_size) {
            count = file->input_size - file->input_offset;
            count = count < size - *read ? count : size - *read;
            memcpy(buffer + *read, file->input + file->input_offset, count);
            file->input_offset += count;
        } else if (read_some(file, buffer + *read, size - *read, &count) != EXIT_OK) {
            return EXIT_OTHER;
        }
        file->ended = count == 0;
        *read += count;
    }
    return EXIT_OK;
}

static int fill_block(struct inflate_file *file)
{
    file->block_offset = 0;
    return inflate_into(file, file->block, BLOCK_SIZE, &file->block_size);
}

int inflate_file_read(struct inflate_file *file, void *buffer, size_t size, size_t *read)
{
    if (!file->compressed)
        return read_plain(file, buffer, size, read);
    unsigned char *cursor = buffer;
    *read = 0;
    while (*read < size) {
        size_t pending = file->block_size - file->block_offset;
        if (pending == 0 && size - *read >= BLOCK_SIZE) {
            size_t count;
            int status = inflate_into(file, cursor + *read, size - *read, &count);
            *read += count;
            return status;
        }
        if (pending == 0) {
            int status = fill_block(file);
            if (status != EXIT_OK || file->block_size == 0)
                return status;
            pending = file->block_size;
        }
        size_t count = pending < size - *read ? pending : size - *read;
        memcpy(cursor + *read, file->block + file->block_offset, count);
        file->block_offset += count;
        *read += count;
    }
    return EXIT_OK;
}

int inflate_file_block(struct inflate_file *file, const void **data, size_t *size)
{
    if (file->compressed && file->block_offset == file->block_size) {
        int status = fill_block(file);
        if (status != EXIT_OK)
            return status;
    }
    if (file->compressed) {
        *data = file->block + file->block_offset;
        *size = file->block_size - file->block_offset;
        file->block_offset = file->block_size;
        return EXIT_OK;
    }
    *data = file->block;
    return read_plain(file, file->block, BLOCK_SIZE, size);
}

const char *inflate_file_reason(const struct inflate_file *file)
{
    return file->reason != NULL ? file->reason : "";
}

void inflate_file_close(struct inflate_file *file)
{
    if (file == NULL)
        return;
    if (file->descriptor >= 0)
        close(file->descriptor);
    inflater_free(file->inflater);
    free(file);
}
