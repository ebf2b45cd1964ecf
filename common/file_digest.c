/* Hashes a growing file in a thread that follows the writer through the page cache. */
#include "file_digest.h"

#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { READ_BLOCK = 1 << 20 };

struct file_digest {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int descriptor;
    struct hash *hash;
    uint64_t available;   /* bytes the writer has put in the file */
    uint64_t hashed;      /* bytes fed to the hash */
    bool stopping;        /* no more advances: hash what is available and return */
    bool cancelled;       /* return at once */
    int read_error;       /* errno of a failed read, 0 otherwise */
    const char *path;
};

/* Waits until a block is there to hash, or the writer is done; returns the size to reach. */
static uint64_t digest_wait(struct file_digest *digest, bool *done)
{
    pthread_mutex_lock(&digest->mutex);
    while (digest->available - digest->hashed < READ_BLOCK && !digest->stopping &&
           !digest->cancelled)
        pthread_cond_wait(&digest->changed, &digest->mutex);
    uint64_t target = digest->available;
    *done = digest->cancelled || (digest->stopping && target == digest->hashed);
    pthread_mutex_unlock(&digest->mutex);
    return target;
}

static int digest_read(struct file_digest *digest, unsigned char *buffer, uint64_t target)
{
    while (digest->hashed < target) {
        uint64_t left = target - digest->hashed;
        size_t want = left < READ_BLOCK ? (size_t)left : READ_BLOCK;
        ssize_t count = pread(digest->descriptor, buffer, want, (off_t)digest->hashed);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            return count < 0 ? errno : EIO;
        hash_update(digest->hash, buffer, (size_t)count);
        digest->hashed += (uint64_t)count;
    }
    return 0;
}

static void *digest_follow(void *argument)
{
    struct file_digest *digest = argument;
    unsigned char *buffer = malloc(READ_BLOCK);
    if (buffer == NULL) {
        digest->read_error = ENOMEM;
        return NULL;
    }
    bool done = false;
    while (!done) {
        uint64_t target = digest_wait(digest, &done);
        if (done)
            break;
        digest->read_error = digest_read(digest, buffer, target);
        if (digest->read_error != 0)
            break;
    }
    free(buffer);
    return NULL;
}

int file_digest_start(struct file_digest **result, const char *path, enum hash_algorithm algorithm)
{
    struct file_digest *digest = calloc(1, sizeof *digest);
    if (digest == NULL)
        return error_set(EXIT_OTHER, "cannot hash: %s: out of memory", path);
    digest->path = path;
    digest->descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (digest->descriptor < 0) {
        int failure = errno;
        free(digest);
        return error_set(EXIT_OTHER, "cannot read back: %s: %s", path, strerror(failure));
    }
    int status = hash_begin(&digest->hash, algorithm);
    if (status == EXIT_OK) {
        pthread_mutex_init(&digest->mutex, NULL);
        pthread_cond_init(&digest->changed, NULL);
        if (pthread_create(&digest->thread, NULL, digest_follow, digest) == 0) {
            *result = digest;
            return EXIT_OK;
        }
        pthread_cond_destroy(&digest->changed);
        pthread_mutex_destroy(&digest->mutex);
        hash_discard(digest->hash);
        status = error_set(EXIT_OTHER, "cannot hash: %s: no thread", path);
    }
    close(digest->descriptor);
    free(digest);
    return status;
}

void file_digest_advance(struct file_digest *digest, uint64_t size)
{
    pthread_mutex_lock(&digest->mutex);
    digest->available = size;
    pthread_cond_signal(&digest->changed);
    pthread_mutex_unlock(&digest->mutex);
}

static void digest_stop(struct file_digest *digest, bool cancel)
{
    pthread_mutex_lock(&digest->mutex);
    digest->stopping = true;
    digest->cancelled = cancel;
    pthread_cond_signal(&digest->changed);
    pthread_mutex_unlock(&digest->mutex);
    pthread_join(digest->thread, NULL);
    pthread_cond_destroy(&digest->changed);
    pthread_mutex_destroy(&digest->mutex);
    close(digest->descriptor);
}

int file_digest_finish(struct file_digest *digest, char hex[HASH_HEX_SIZE])
{
    digest_stop(digest, false);
    int failure = digest->read_error;
    if (failure == 0 && digest->hashed != digest->available)
        failure = EIO;
    int result = EXIT_OK;
    if (failure != 0) {
        hash_discard(digest->hash);
        result = error_set(EXIT_OTHER, "cannot read back: %s: %s", digest->path, strerror(failure));
    } else {
        hash_finish(digest->hash, hex);
    }
    free(digest);
    return result;
}

void file_digest_cancel(struct file_digest *digest)
{
    if (digest == NULL)
        return;
    digest_stop(digest, true);
    hash_discard(digest->hash);
    free(digest);
}
