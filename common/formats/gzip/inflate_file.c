/* Reads a file through the inflater when it starts with gzip's magic bytes (see inflate_file.h). */
#include "inflate_file.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "common/base/read_tap.h"
#include "inflate.h"
#include "common/formats/read_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Without a thread, reads of at least BLOCK_SIZE bytes are inflated straight into the caller's
   buffer; with one, it inflates AHEAD_BLOCK_SIZE bytes at a time while the caller works. */
enum { INPUT_SIZE = 1 << 18, BLOCK_SIZE = 1 << 18, AHEAD_BLOCK_SIZE = 1 << 18 };

struct inflate_file {
    int descriptor;
    bool compressed;
    bool ended; /* the content has ended: no byte left to read or inflate */
    bool content_tapped; /* the file's tap hashes the content inflated (read_tap.h) */
    uint64_t size;
    struct inflater *inflater;
    /* Plain files: the bytes read while looking for the magic, served first. */
    size_t input_offset, input_size;
    /* The thread inflating ahead, or NULL. */
    struct read_ahead *ahead;
    /* The block being read: BLOCK, or the thread's; its bytes from CURRENT_OFFSET are unread. */
    const unsigned char *current;
    size_t current_offset, current_size;
    /* A failure met after some bytes were inflated: reported once those have been read. */
    int failure;
    const char *reason;
    unsigned char input[INPUT_SIZE];
    unsigned char block[BLOCK_SIZE];
};

static int read_some(struct inflate_file *file, unsigned char *buffer, size_t size, size_t *count)
{
    ssize_t result = input_file_read(file->descriptor, buffer, size);
    if (result < 0) {
        file->reason = strerror(errno);
        return EXIT_OTHER;
    }
    *count = (size_t)result;
    return EXIT_OK;
}

static int open_descriptor(struct inflate_file *file, const char *path, const char *what)
{
    struct stat status;
    file->descriptor = input_file_open(path, &status);
    int failure = errno;
    if (file->descriptor >= 0) {
        file->size = (uint64_t)status.st_size;
        return EXIT_OK;
    }
    if (error_code() == EXIT_CORRUPT_INPUT)
        return error_code();
    bool missing = failure == ENOENT || failure == ENOTDIR || failure == EACCES ||
                   failure == ELOOP || failure == EISDIR;
    return error_set(missing ? EXIT_MISSING_INPUT : EXIT_OTHER, "%s: %s: %s", what, path,
                     strerror(failure));
}

static int inflate_ahead(void *source, void *block, size_t size, size_t *filled);

/* Reads the first bytes and decides: gzip's magic 1f 8b, or a plain file. */
static int look_at_start(struct inflate_file *file, const char *path, const char *what,
                         unsigned threads)
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
    file->content_tapped = read_tap_wants_content(file->descriptor);
    if (inflater_create(&file->inflater, INFLATE_GZIP) != EXIT_OK)
        return error_set(EXIT_OTHER, "%s: %s: out of memory", what, path);
    inflater_feed(file->inflater, file->input, count);
    if (threads > 1 &&
        read_ahead_start_stream(&file->ahead, inflate_ahead, file, AHEAD_BLOCK_SIZE) != EXIT_OK)
        file->ahead = NULL; /* inflated in the caller's thread instead */
    return EXIT_OK;
}

int inflate_file_open(struct inflate_file **file, const char *path, const char *what,
                      unsigned threads)
{
    *file = malloc(sizeof **file);
    if (*file == NULL)
        return error_set(EXIT_OTHER, "%s: %s: out of memory", what, path);
    memset(*file, 0, offsetof(struct inflate_file, input));
    int status = open_descriptor(*file, path, what);
    if (status == EXIT_OK)
        status = look_at_start(*file, path, what, threads);
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
        if (count > 0 && file->content_tapped)
            read_tap_content(file->descriptor, buffer + *produced, count);
        *produced += count;
        if (status == INFLATE_END) {
            file->ended = true;
            if (file->content_tapped)
                read_tap_content_end(file->descriptor);
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

/* read_ahead's fill, run by the thread, which owns the inflater and the descriptor meanwhile. */
static int inflate_ahead(void *source, void *block, size_t size, size_t *filled)
{
    struct inflate_file *file = source;
    int status = inflate_into(file, block, size, filled);
    if (status == EXIT_OK)
        status = file->failure; /* met after the bytes inflated: they go out first */
    return status == EXIT_OK ? EXIT_OK : error_set(status, "%s", file->reason);
}

/* Makes the next block current; its size is 0 at the end. */
static int next_block(struct inflate_file *file)
{
    file->current_offset = 0;
    file->current_size = 0;
    if (file->ahead != NULL)
        return read_ahead_next(file->ahead, &file->current, &file->current_size);
    file->current = file->block;
    if (!file->compressed)
        return read_plain(file, file->block, BLOCK_SIZE, &file->current_size);
    return inflate_into(file, file->block, BLOCK_SIZE, &file->current_size);
}

int inflate_file_read(struct inflate_file *file, void *buffer, size_t size, size_t *read)
{
    unsigned char *cursor = buffer;
    *read = 0;
    while (*read < size) {
        size_t pending = file->current_size - file->current_offset, count;
        bool direct = !file->compressed || (file->ahead == NULL && size - *read >= BLOCK_SIZE);
        if (pending == 0 && direct) {
            int status = file->compressed ? inflate_into(file, cursor + *read, size - *read, &count)
                                          : read_plain(file, cursor + *read, size - *read, &count);
            *read += count;
            return status;
        }
        if (pending == 0) {
            int status = next_block(file);
            if (status != EXIT_OK || file->current_size == 0)
                return status;
            pending = file->current_size;
        }
        count = pending < size - *read ? pending : size - *read;
        memcpy(cursor + *read, file->current + file->current_offset, count);
        file->current_offset += count;
        *read += count;
    }
    return EXIT_OK;
}

int inflate_file_block(struct inflate_file *file, const void **data, size_t *size)
{
    if (file->current_offset == file->current_size) {
        int status = next_block(file);
        if (status != EXIT_OK)
            return status;
    }
    *data = file->current + file->current_offset;
    *size = file->current_size - file->current_offset;
    file->current_offset = file->current_size;
    return EXIT_OK;
}

const char *inflate_file_reason(const struct inflate_file *file)
{
    return file->reason != NULL ? file->reason : "";
}

/* A reader that stopped before the content's end leaves the rest to the tap's pass: inflated to
   the end here, so the content's digest is of the whole of it. */
static void content_drain(struct inflate_file *file)
{
    size_t count;
    while (file->content_tapped && !file->ended && file->failure == EXIT_OK &&
           inflate_into(file, file->block, BLOCK_SIZE, &count) == EXIT_OK && count > 0)
        continue;
}

void inflate_file_close(struct inflate_file *file)
{
    if (file == NULL)
        return;
    read_ahead_end(file->ahead);
    if (file->compressed)
        content_drain(file);
    if (file->descriptor >= 0)
        input_file_close(file->descriptor);
    inflater_free(file->inflater);
    free(file);
}
