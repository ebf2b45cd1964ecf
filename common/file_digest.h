/* The digest of a file being written, computed by a thread that reads it back behind the writer,
   so hashing overlaps the transfer instead of following it. */
#ifndef FUEL_FILE_DIGEST_H
#define FUEL_FILE_DIGEST_H

#include "hash.h"

#include <stdint.h>

struct file_digest;

/* Starts hashing PATH from its first byte; nothing is read before file_digest_advance. */
int file_digest_start(struct file_digest **digest, const char *path, enum hash_algorithm algorithm);

/* The writer has put SIZE bytes into the file (a total, not an increment). */
void file_digest_advance(struct file_digest *digest, uint64_t size);

/* Hashes up to the last size advanced, writes the hex digest and frees DIGEST. EXIT_OTHER when
   the file could not be read back. */
int file_digest_finish(struct file_digest *digest, char hex[HASH_HEX_SIZE]);

/* Stops the thread and frees DIGEST; NULL is allowed. */
void file_digest_cancel(struct file_digest *digest);

#endif
