/* One shard file being written into an export set: through two buffers of 1 MiB, the full one
   hashed (sha256) and written by a thread of its own while the other fills, its written pages
   sent to the disk behind it. */
#ifndef FUEL_SHARD_FILE_H
#define FUEL_SHARD_FILE_H

#include "common/base/hash.h"
#include "common/base/write_behind.h"
#include "export_set.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct shard_file {
    int descriptor;
    unsigned char *buffers[2];
    size_t buffered;       /* in buffers[filling] */
    int filling;
    struct hash *hash;
    struct write_behind behind;
    char shown[4800];      /* DIR/ENTRY, for messages */
    uint64_t bytes;
    /* The writer thread, started at the first full buffer: it takes pending bytes of
       buffers[1 - filling], and keeps the errno of a failed write. */
    pthread_t writer;
    bool started, stopping;
    size_t pending;
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
