/* Hashes streams on two threads of their own (see hash_stream.h): a ring of blocks the bytes are
   copied into, in the order they were appended, which the SHA-256 and MD5 threads each hash so. */
#include "hash_stream.h"

#include "error.h"
#include "threads.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FIRST_BLOCKS blocks of BLOCK_SIZE bytes in flight at first (1.5 MiB: memory bounds are tight),
   twice as many each time a reader finds them all in flight, up to MOST_BLOCKS (6 MiB): a
   reader that reads 4 MiB and then writes them (an export) keeps the SHA-256 hasher busy while it
   writes only if the blocks can hold what it read. Hasher 0 computes SHA-256 and keeps the size,
   first and last bytes; hasher 1 computes MD5. */
enum { BLOCK_SIZE = 1 << 18, FIRST_BLOCKS = 6, MOST_BLOCKS = 24, HASHERS = 2 };

struct hash_stream {
    struct hash *hashes[HASHERS]; /* SHA-256, MD5 or NULL */
    struct file_digests digests;  /* size, first and last bytes, as hasher 0 hashes them */
    uint64_t end;                 /* the blocks appended when its last one was */
};

struct block {
    struct hash_stream *stream;
    size_t size;
    unsigned char *bytes;
};

/* Every wake-up is a context switch, which cost SVHN 2's 248 MB 3,000 of them and a tenth of a
   second: a waiting hasher is woken once half the ring waits for it (or a stream's finish does),
   a reader waiting for a free block once half the ring is free, a stream's finish after every
   block. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work[HASHERS] = {PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER};
static bool idle[HASHERS];             /* hasher waiting on its WORK: a block queued, or quit */
static pthread_cond_t done = PTHREAD_COND_INITIALIZER; /* blocks were hashed */
static size_t full_waiters, end_waiters; /* readers waiting for a free block, or a stream's end */
static struct block ring[MOST_BLOCKS]; /* block number N in ring[N % MOST_BLOCKS] */
static size_t capacity = FIRST_BLOCKS; /* blocks allowed in flight */
static unsigned char *spare[MOST_BLOCKS]; /* the bytes of blocks every hasher is done with */
static size_t spare_count;
static uint64_t appended;              /* blocks ever appended */
static uint64_t hashed[HASHERS];       /* blocks each hasher is done with */
static size_t stream_count;
static bool running, quit;
/* Bytes are gathered in ring[appended % MOST_BLOCKS] until it is full or another stream appends,
   so that small reads (HDF5 reads a stored JPEG at a time) wake the hashers once a block. */
static struct hash_stream *open_stream; /* whose bytes the open block holds; NULL: none open */
static size_t open_size;
static pthread_t threads[HASHERS];

/* Keeps the first and last bytes of SIZE more bytes of STREAM, and counts them. */
static void stream_keep(struct hash_stream *stream, const unsigned char *bytes, size_t size)
{
    struct file_digests *digests = &stream->digests;
    if (digests->head_length < HASH_HEAD_BYTES) {
        size_t kept = HASH_HEAD_BYTES - digests->head_length;
        kept = kept < size ? kept : size;
        memcpy(digests->head + digests->head_length, bytes, kept);
        digests->head_length += kept;
    }
    if (size >= HASH_TAIL_BYTES) {
        memcpy(digests->tail, bytes + size - HASH_TAIL_BYTES, HASH_TAIL_BYTES);
        digests->tail_length = HASH_TAIL_BYTES;
    } else {
        size_t kept = digests->tail_length < HASH_TAIL_BYTES - size ? digests->tail_length
                                                                    : HASH_TAIL_BYTES - size;
        memmove(digests->tail, digests->tail + digests->tail_length - kept, kept);
        memcpy(digests->tail + kept, bytes, size);
        digests->tail_length = kept + size;
    }
    digests->size += size;
}

/* Hashes SIZE bytes of STREAM the way HASHER does. */
static void stream_hash(struct hash_stream *stream, size_t hasher, const unsigned char *bytes,
                        size_t size)
{
    if (stream->hashes[hasher] != NULL)
        hash_update(stream->hashes[hasher], bytes, size);
    if (hasher == 0)
        stream_keep(stream, bytes, size);
}

/* The blocks in flight: appended, not yet hashed by every hasher. Under LOCK. */
static uint64_t in_flight(void)
{
    uint64_t oldest = hashed[0] < hashed[1] ? hashed[0] : hashed[1];
    return appended - oldest;
}

/* Gives the bytes of the blocks from OLDEST (the oldest in flight before) to the oldest in flight
   now back to the spares. Under LOCK. */
static void blocks_release(uint64_t oldest)
{
    for (; oldest < appended - in_flight(); oldest++) {
        struct block *block = &ring[oldest % MOST_BLOCKS];
        spare[spare_count++] = block->bytes;
        block->bytes = NULL;
    }
}

/* Hasher number ARGUMENT: hashes every block appended, in order, until quit. Not niced as the
   decoding workers are: the reader waits for it whenever every block is in flight, so it runs at
   the reader's priority (Fashion-MNIST on a loaded machine: 2.16 s at +10 against 0.82 s). */
static void *hash_blocks(void *argument)
{
    size_t hasher = (size_t)(uintptr_t)argument;
    pthread_mutex_lock(&lock);
    for (;;) {
        idle[hasher] = true;
        while (hashed[hasher] == appended && !quit)
            pthread_cond_wait(&work[hasher], &lock);
        idle[hasher] = false;
        if (hashed[hasher] == appended)
            break;
        struct block block = ring[hashed[hasher] % MOST_BLOCKS];
        pthread_mutex_unlock(&lock);
        stream_hash(block.stream, hasher, block.bytes, block.size);
        pthread_mutex_lock(&lock);
        uint64_t oldest = appended - in_flight();
        hashed[hasher]++;
        blocks_release(oldest);
        if (end_waiters > 0 || (full_waiters > 0 && in_flight() <= capacity / 2))
            pthread_cond_broadcast(&done);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* Starts every hasher, or none (joining those started before a failure, with LOCK released):
   0 or the error number. Under LOCK. */
static int hashers_start(void)
{
    quit = false;
    running = true;
    for (size_t hasher = 0; hasher < HASHERS; hasher++) {
        int number = threads_start(&threads[hasher], hash_blocks, (void *)(uintptr_t)hasher);
        if (number == 0)
            continue;
        quit = true;
        for (size_t other = 0; other < HASHERS; other++)
            pthread_cond_broadcast(&work[other]);
        pthread_mutex_unlock(&lock);
        for (size_t started = 0; started < hasher; started++)
            pthread_join(threads[started], NULL);
        pthread_mutex_lock(&lock);
        running = quit = false;
        pthread_cond_broadcast(&done);
        return number;
    }
    return 0;
}

int hash_stream_create(struct hash_stream **stream, bool md5)
{
    *stream = calloc(1, sizeof **stream);
    if (*stream == NULL)
        return error_set(EXIT_OTHER, "cannot hash: out of memory");
    int result = hash_begin(&(*stream)->hashes[0], HASH_SHA256);
    if (result == EXIT_OK && md5)
        result = hash_begin(&(*stream)->hashes[1], HASH_MD5);
    pthread_mutex_lock(&lock);
    while (running && quit) /* the last stream's free is joining the threads */
        pthread_cond_wait(&done, &lock);
    int number = 0;
    if (result == EXIT_OK && !running)
        number = hashers_start();
    if (result == EXIT_OK && number == 0)
        stream_count++;
    pthread_mutex_unlock(&lock);
    if (result == EXIT_OK && number != 0)
        result = error_set(EXIT_OTHER, "cannot hash: cannot start a thread: %s", strerror(number));
    if (result != EXIT_OK) {
        hash_discard((*stream)->hashes[0]);
        hash_discard((*stream)->hashes[1]);
        free(*stream);
        *stream = NULL;
    }
    return result;
}

/* Hands the open block to the hashers: a block without MD5 is done for the MD5 hasher at once
   when that one has nothing else to do. Under LOCK. */
static void open_block_publish(void)
{
    if (open_stream == NULL)
        return;
    ring[appended % MOST_BLOCKS].size = open_size;
    bool md5_done = open_stream->hashes[1] == NULL && hashed[1] == appended;
    open_stream->end = ++appended;
    hashed[1] += md5_done;
    open_stream = NULL;
    open_size = 0;
    for (size_t hasher = 0; hasher < HASHERS; hasher++)
        if (idle[hasher] && hashed[hasher] < appended &&
            (appended - hashed[hasher] >= FIRST_BLOCKS / 2 || end_waiters > 0))
            pthread_cond_signal(&work[hasher]);
    if (end_waiters > 0)
        pthread_cond_broadcast(&done);
}

/* Waits until every hasher is done with STREAM, its open block handed on first. Under LOCK. */
static void stream_wait_locked(struct hash_stream *stream)
{
    end_waiters++;
    if (open_stream == stream)
        open_block_publish();
    for (size_t hasher = 0; hasher < HASHERS; hasher++)
        if (idle[hasher] && hashed[hasher] < stream->end)
            pthread_cond_signal(&work[hasher]);
    while (hashed[0] < stream->end || hashed[1] < stream->end)
        pthread_cond_wait(&done, &lock);
    end_waiters--;
}

/* Copies up to PART bytes of STREAM into the open block, opening one once a block is free (or,
   memory out, hashes them in this thread once the hashers are done with STREAM): the bytes taken.
   Under LOCK. */
static size_t block_fill(struct hash_stream *stream, const unsigned char *bytes, size_t part)
{
    for (;;) { /* another appender may open a block while this one waits */
        if (open_stream != stream)
            open_block_publish();
        if (open_stream == stream || in_flight() < capacity)
            break;
        if (capacity < MOST_BLOCKS) {
            capacity = 2 * capacity < MOST_BLOCKS ? 2 * capacity : MOST_BLOCKS;
            continue;
        }
        full_waiters++;
        while (in_flight() > capacity / 2)
            pthread_cond_wait(&done, &lock);
        full_waiters--;
    }
    struct block *block = &ring[appended % MOST_BLOCKS];
    if (block->bytes == NULL)
        block->bytes = spare_count > 0 ? spare[--spare_count] : malloc(BLOCK_SIZE);
    if (block->bytes == NULL) {
        stream_wait_locked(stream);
        pthread_mutex_unlock(&lock);
        for (size_t hasher = 0; hasher < HASHERS; hasher++)
            stream_hash(stream, hasher, bytes, part);
        pthread_mutex_lock(&lock);
        return part;
    }
    size_t taken = BLOCK_SIZE - open_size < part ? BLOCK_SIZE - open_size : part;
    memcpy(block->bytes + open_size, bytes, taken);
    block->stream = open_stream = stream;
    open_size += taken;
    if (open_size == BLOCK_SIZE)
        open_block_publish();
    return taken;
}

void hash_stream_append(struct hash_stream *stream, const void *bytes, size_t size)
{
    const unsigned char *cursor = bytes;
    pthread_mutex_lock(&lock);
    while (size > 0) {
        size_t taken = block_fill(stream, cursor, size);
        cursor += taken;
        size -= taken;
    }
    pthread_mutex_unlock(&lock);
}

/* Waits until every hasher is done with STREAM. */
static void stream_wait(struct hash_stream *stream)
{
    pthread_mutex_lock(&lock);
    stream_wait_locked(stream);
    pthread_mutex_unlock(&lock);
}

void hash_stream_finish(struct hash_stream *stream, struct file_digests *digests)
{
    stream_wait(stream);
    *digests = stream->digests;
    if (stream->hashes[0] != NULL)
        hash_finish(stream->hashes[0], digests->sha256);
    if (stream->hashes[1] != NULL)
        hash_finish(stream->hashes[1], digests->md5);
    stream->hashes[0] = stream->hashes[1] = NULL;
}

void hash_stream_free(struct hash_stream *stream)
{
    if (stream == NULL)
        return;
    pthread_mutex_lock(&lock);
    if (open_stream == stream) { /* its digests are not wanted: the block is reused as it is */
        open_stream = NULL;
        open_size = 0;
    }
    pthread_mutex_unlock(&lock);
    stream_wait(stream);
    hash_discard(stream->hashes[0]);
    hash_discard(stream->hashes[1]);
    free(stream);
    pthread_mutex_lock(&lock);
    bool last = --stream_count == 0;
    if (last) {
        quit = true;
        for (size_t hasher = 0; hasher < HASHERS; hasher++)
            pthread_cond_broadcast(&work[hasher]);
    }
    pthread_mutex_unlock(&lock);
    if (!last)
        return;
    for (size_t hasher = 0; hasher < HASHERS; hasher++)
        pthread_join(threads[hasher], NULL);
    pthread_mutex_lock(&lock);
    running = false;
    for (size_t index = 0; index < MOST_BLOCKS; index++) {
        free(ring[index].bytes);
        ring[index].bytes = NULL;
    }
    while (spare_count > 0)
        free(spare[--spare_count]);
    capacity = FIRST_BLOCKS;
    pthread_cond_broadcast(&done);
    pthread_mutex_unlock(&lock);
}
