/* One shard file being written into an export set: through a ring of 1 MiB buffers, each full
   one hashed (sha256) by one thread and written by another while the caller fills the next, its
   written pages sent to the disk behind it. */
#ifndef FUEL_SHARD_FILE_H
#define FUEL_SHARD_FILE_H

#include "common/base/hash.h"
#include "common/base/write_behind.h"
#include "export_set.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Buffers in the ring: the hashing and the writing thread may each be a few behind the caller. */
#define SHARD_FILE_RING 4

struct shard_file {
    int descriptor;
    unsigned char *buffers[SHARD_FILE_RING];
    size_t sizes[SHARD_FILE_RING];
    size_t buffered;       /* in buffers[handed % SHARD_FILE_RING], not yet handed on */
    struct hash *hash;
    struct write_behind behind;
    char shown[4800];      /* DIR/ENTRY, for messages */
    uint64_t bytes;
    /* The hashing and writing threads, started at the first full buffer: each takes the buffers
       handed on in turn; the writer keeps the errno of a failed write. */
    pthread_t hasher, writer;
    bool started, stopping;
    bool alone; /* the system refused the threads: the caller hashes and writes */
    uint64_t handed, hashed, written;
    int failure;
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

/* Creates the set's file ENTRY; DIRECTORY names the set's final place in messages. */
int shard_file_open(struct shard_file *file, struct export_set *set, const char *directory,
                    const char *entry);

/* Writes SIZE bytes at DATA. EXIT_WRITE naming the file and the system's reason. */
int shard_file_write(struct shard_file *file, const void *data, size_t size);

/* Writes what is buffered, closes the file and gives its sha256 (lowercase hex). */
int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE]);

/* Closes the file after a failure, reporting nothing. */
void shard_file_abandon(struct shard_file *file);

#endif
