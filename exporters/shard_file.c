/* Shard files: written through a buffer of our own with write(2), hashed on the way, written back
   behind the writer. */
#include "shard_file.h"

#include "common/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BUFFER_SIZE = 1 << 20 };

static int file_failed(const struct shard_file *file, int number)
{
    return error_set(EXIT_WRITE, "cannot write: %s: %s", file->shown, strerror(number));
}

int shard_file_open(struct shard_file *file, struct export_set *set, const char *directory,
                    const char *entry)
{
    *file = (struct shard_file){.descriptor = -1, .behind = {.descriptor = -1}};
    snprintf(file->shown, sizeof file->shown, "%s/%s", directory, entry);
    char path[4800];
    int result = export_set_path(set, entry, path, sizeof path);
    if (result == EXIT_OK)
        result = hash_begin(&file->hash, HASH_SHA256);
    if (result == EXIT_OK && (file->buffer = malloc(BUFFER_SIZE)) == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK &&
        (file->descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        result = file_failed(file, errno);
    if (result != EXIT_OK) {
        shard_file_abandon(file);
        return result;
    }
    write_behind_start(&file->behind, file->descriptor);
    return EXIT_OK;
}

static int bytes_write(struct shard_file *file, const unsigned char *data, size_t size)
{
    while (size > 0) {
        ssize_t written = write(file->descriptor, data, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return file_failed(file, written < 0 ? errno : ENOSPC);
        write_behind_note(&file->behind, (size_t)written);
        data += written;
        size -= (size_t)written;
    }
    return EXIT_OK;
}

static int buffer_flush(struct shard_file *file)
{
    int result = bytes_write(file, file->buffer, file->buffered);
    file->buffered = 0;
    return result;
}

int shard_file_write(struct shard_file *file, const void *data, size_t size)
{
    hash_update(file->hash, data, size);
    file->bytes += size;
    if (file->buffered + size <= BUFFER_SIZE) {
        memcpy(file->buffer + file->buffered, data, size);
        file->buffered += size;
        return EXIT_OK;
    }
    int result = buffer_flush(file);
    if (result != EXIT_OK || size >= BUFFER_SIZE)
        return result == EXIT_OK ? bytes_write(file, data, size) : result;
    memcpy(file->buffer, data, size);
    file->buffered = size;
    return EXIT_OK;
}

int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE])
{
    int result = buffer_flush(file);
    if (close(file->descriptor) != 0 && result == EXIT_OK)
        result = file_failed(file, errno);
    file->descriptor = -1;
    hash_finish(file->hash, sha256);
    file->hash = NULL;
    free(file->buffer);
    file->buffer = NULL;
    return result;
}

void shard_file_abandon(struct shard_file *file)
{
    if (file->descriptor >= 0)
        close(file->descriptor);
    if (file->hash != NULL)
        hash_discard(file->hash);
    free(file->buffer);
    *file = (struct shard_file){.descriptor = -1, .behind = {.descriptor = -1}};
}
