/* One shard file being written into an export set: buffered, its sha256 computed as it goes, its
   written pages sent to the disk behind the writer. */
#ifndef FUEL_SHARD_FILE_H
#define FUEL_SHARD_FILE_H

#include "common/base/hash.h"
#include "common/base/write_behind.h"
#include "export_set.h"

#include <stddef.h>
#include <stdint.h>

struct shard_file {
    int descriptor;
    unsigned char *buffer; /* 1 MiB, written whole with write(2) */
    size_t buffered;
    struct hash *hash;
    struct write_behind behind;
    char shown[4800]; /* DIR/ENTRY, for messages */
    uint64_t bytes;
};

/* Creates the set's file ENTRY; DIRECTORY names the set's final place in messages. */
int shard_file_open(struct shard_file *file, struct export_set *set, const char *directory,
                    const char *entry);

/* Writes SIZE bytes at DATA. EXIT_WRITE naming the file and the system's reason. */
int shard_file_write(struct shard_file *file, const void *data, size_t size);

/* Flushes and closes the file, giving its sha256 (lowercase hex). */
int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE]);

/* Closes the file after a failure, reporting nothing. */
void shard_file_abandon(struct shard_file *file);

#endif
