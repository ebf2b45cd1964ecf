/* Shard files: two buffers of our own, one filled by the caller while a writer thread hashes
   and write(2)s the other, written back behind the writer. */
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

/* Hashes and writes SIZE bytes at DATA; 0, or the errno of the failure. */
static int bytes_write(struct shard_file *file, const unsigned char *data, size_t size)
{
    hash_update(file->hash, data, size);
    while (size > 0) {
        ssize_t written = write(file->descriptor, data, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return written < 0 ? errno : ENOSPC;
        write_behind_note(&file->behind, (size_t)written);
        data += written;
        size -= (size_t)written;
    }
    return 0;
}

static void *writer_run(void *argument)
{
    struct shard_file *file = argument;
    pthread_mutex_lock(&file->lock);
    for (;;) {
        while (file->pending == 0 && !file->stopping)
            pthread_cond_wait(&file->changed, &file->lock);
        if (file->pending == 0)
            break;
        const unsigned char *data = file->buffers[1 - file->filling];
        size_t size = file->pending;
        pthread_mutex_unlock(&file->lock);
        int failure = file->failure ? 0 : bytes_write(file, data, size);
        pthread_mutex_lock(&file->lock);
        file->failure = file->failure ? file->failure : failure;
        file->pending = 0;
        pthread_cond_broadcast(&file->changed);
    }
    pthread_mutex_unlock(&file->lock);
    return NULL;
}

/* Waits for the writer to finish the buffer it has; its failure, if any, as an exit code. */
static int writer_wait(struct shard_file *file)
{
    if (!file->started)
        return file->failure ? file_failed(file, file->failure) : EXIT_OK;
    pthread_mutex_lock(&file->lock);
    while (file->pending != 0)
        pthread_cond_wait(&file->changed, &file->lock);
    int failure = file->failure;
    pthread_mutex_unlock(&file->lock);
    return failure ? file_failed(file, failure) : EXIT_OK;
}

/* Hands the full buffer to the writer (started the first time) and fills the other. */
static int buffer_hand_on(struct shard_file *file)
{
    int result = writer_wait(file);
    if (result != EXIT_OK)
        return result;
    if (!file->started) {
        file->started = pthread_create(&file->writer, NULL, writer_run, file) == 0;
        if (!file->started) {
            int failure = bytes_write(file, file->buffers[file->filling], file->buffered);
            file->buffered = 0;
            return failure ? file_failed(file, failure) : EXIT_OK;
        }
    }
    pthread_mutex_lock(&file->lock);
    file->pending = file->buffered;
    file->filling = 1 - file->filling;
    file->buffered = 0;
    pthread_cond_broadcast(&file->changed);
    pthread_mutex_unlock(&file->lock);
    return EXIT_OK;
}

int shard_file_open(struct shard_file *file, struct export_set *set, const char *directory,
                    const char *entry)
{
    *file = (struct shard_file){.descriptor = -1, .behind = {.descriptor = -1}};
    pthread_mutex_init(&file->lock, NULL);
    pthread_cond_init(&file->changed, NULL);
    snprintf(file->shown, sizeof file->shown, "%s/%s", directory, entry);
    char path[4800];
    int result = export_set_path(set, entry, path, sizeof path);
    if (result == EXIT_OK)
        result = hash_begin(&file->hash, HASH_SHA256);
    for (int index = 0; result == EXIT_OK && index < 2; index++)
        if ((file->buffers[index] = malloc(BUFFER_SIZE)) == NULL)
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

int shard_file_write(struct shard_file *file, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    file->bytes += size;
    while (size > 0) {
        size_t room = BUFFER_SIZE - file->buffered;
        size_t part = size < room ? size : room;
        memcpy(file->buffers[file->filling] + file->buffered, bytes, part);
        file->buffered += part;
        bytes += part;
        size -= part;
        int result = file->buffered == BUFFER_SIZE ? buffer_hand_on(file) : EXIT_OK;
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

/* Stops the writer thread once it has written what it has. */
static void writer_stop(struct shard_file *file)
{
    if (!file->started)
        return;
    pthread_mutex_lock(&file->lock);
    file->stopping = true;
    pthread_cond_broadcast(&file->changed);
    pthread_mutex_unlock(&file->lock);
    pthread_join(file->writer, NULL);
    file->started = false;
}

static void file_free(struct shard_file *file)
{
    writer_stop(file);
    if (file->descriptor >= 0)
        close(file->descriptor);
    if (file->hash != NULL)
        hash_discard(file->hash);
    free(file->buffers[0]);
    free(file->buffers[1]);
    pthread_mutex_destroy(&file->lock);
    pthread_cond_destroy(&file->changed);
}

int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE])
{
    int result = writer_wait(file);
    writer_stop(file);
    if (result == EXIT_OK && file->buffered > 0) {
        int failure = bytes_write(file, file->buffers[file->filling], file->buffered);
        result = failure ? file_failed(file, failure) : EXIT_OK;
    }
    if (close(file->descriptor) != 0 && result == EXIT_OK)
        result = file_failed(file, errno);
    file->descriptor = -1;
    hash_finish(file->hash, sha256);
    file->hash = NULL;
    file_free(file);
    *file = (struct shard_file){.descriptor = -1, .behind = {.descriptor = -1}};
    return result;
}

void shard_file_abandon(struct shard_file *file)
{
    file_free(file);
    *file = (struct shard_file){.descriptor = -1, .behind = {.descriptor = -1}};
}
