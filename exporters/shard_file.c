/* Shard files: a ring of buffers of our own, filled by the caller while one thread hashes and
   another write(2)s the full ones, written back behind the writer. */
#include "shard_file.h"

#include "common/base/error.h"
#include "common/base/threads.h"

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

/* Writes SIZE bytes at DATA; 0, or the errno of the failure. */
static int bytes_write(struct shard_file *file, const unsigned char *data, size_t size)
{
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

static int bytes_hash(struct shard_file *file, const unsigned char *data, size_t size)
{
    hash_update(file->hash, data, size);
    return 0;
}

/* A thread's loop: applies STEP to each buffer handed on, in turn, counting them in *DONE; after a
   failed write the buffers are only counted. */
static void stage_run(struct shard_file *file, uint64_t *done,
                      int (*step)(struct shard_file *, const unsigned char *, size_t))
{
    pthread_mutex_lock(&file->lock);
    for (;;) {
        while (*done == file->handed && !file->stopping)
            pthread_cond_wait(&file->changed, &file->lock);
        if (*done == file->handed)
            break;
        size_t slot = *done % SHARD_FILE_RING;
        bool failed = file->failure != 0;
        pthread_mutex_unlock(&file->lock);
        int failure = failed ? 0 : step(file, file->buffers[slot], file->sizes[slot]);
        pthread_mutex_lock(&file->lock);
        file->failure = file->failure ? file->failure : failure;
        (*done)++;
        pthread_cond_broadcast(&file->changed);
    }
    pthread_mutex_unlock(&file->lock);
}

static void *hasher_run(void *argument)
{
    struct shard_file *file = argument;
    stage_run(file, &file->hashed, bytes_hash);
    return NULL;
}

static void *writer_run(void *argument)
{
    struct shard_file *file = argument;
    stage_run(file, &file->written, bytes_write);
    return NULL;
}

/* Tells the threads to stop once they are done with every buffer handed on. */
static void stopping_announce(struct shard_file *file)
{
    pthread_mutex_lock(&file->lock);
    file->stopping = true;
    pthread_cond_broadcast(&file->changed);
    pthread_mutex_unlock(&file->lock);
}

static void threads_stop(struct shard_file *file)
{
    if (!file->started)
        return;
    stopping_announce(file);
    pthread_join(file->hasher, NULL);
    pthread_join(file->writer, NULL);
    file->started = false;
}

/* Starts both threads; false (none running) when the system refuses one. */
static bool start_threads(struct shard_file *file)
{
    if (threads_start(&file->hasher, hasher_run, file) != 0)
        return false;
    if (threads_start(&file->writer, writer_run, file) != 0) {
        stopping_announce(file);
        pthread_join(file->hasher, NULL);
        file->stopping = false;
        return false;
    }
    file->started = true;
    return true;
}

/* Hashes and writes the buffer being filled in the caller's thread (no threads to take it). */
static int buffer_write_here(struct shard_file *file)
{
    size_t slot = file->handed % SHARD_FILE_RING;
    bytes_hash(file, file->buffers[slot], file->buffered);
    int failure = file->failure ? file->failure : bytes_write(file, file->buffers[slot],
                                                              file->buffered);
    file->failure = failure;
    file->buffered = 0;
    return failure ? file_failed(file, failure) : EXIT_OK;
}

/* Hands the buffer being filled to the threads (started the first time) and waits until the next
   one in the ring is free. */
static int buffer_hand_on(struct shard_file *file)
{
    if (!file->started && (file->alone || !(file->alone = !start_threads(file))))
        return buffer_write_here(file);
    pthread_mutex_lock(&file->lock);
    file->sizes[file->handed % SHARD_FILE_RING] = file->buffered;
    file->handed++;
    pthread_cond_broadcast(&file->changed);
    while (file->handed - (file->hashed < file->written ? file->hashed : file->written) >=
           SHARD_FILE_RING)
        pthread_cond_wait(&file->changed, &file->lock);
    int failure = file->failure;
    pthread_mutex_unlock(&file->lock);
    file->buffered = 0;
    return failure ? file_failed(file, failure) : EXIT_OK;
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
    for (int index = 0; result == EXIT_OK && index < SHARD_FILE_RING; index++)
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
        unsigned char *buffer = file->buffers[file->handed % SHARD_FILE_RING];
        size_t room = BUFFER_SIZE - file->buffered;
        size_t part = size < room ? size : room;
        memcpy(buffer + file->buffered, bytes, part);
        file->buffered += part;
        bytes += part;
        size -= part;
        int result = file->buffered == BUFFER_SIZE ? buffer_hand_on(file) : EXIT_OK;
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static void file_free(struct shard_file *file)
{
    threads_stop(file);
    if (file->descriptor >= 0)
        close(file->descriptor);
    if (file->hash != NULL)
        hash_discard(file->hash);
    for (int index = 0; index < SHARD_FILE_RING; index++)
        free(file->buffers[index]);
    pthread_mutex_destroy(&file->lock);
    pthread_cond_destroy(&file->changed);
}

int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE])
{
    /* A file that never filled a buffer is written here: no threads for one write. */
    int result = file->buffered == 0 ? EXIT_OK
                 : file->started     ? buffer_hand_on(file)
                                     : buffer_write_here(file);
    threads_stop(file);
    if (result == EXIT_OK && file->failure)
        result = file_failed(file, file->failure);
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
