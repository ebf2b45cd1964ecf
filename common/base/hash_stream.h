/* Streams hashed on a thread of their own: the bytes appended to a stream are copied into blocks
   that one hashing thread (shared by every stream) hashes in order, so that a reader's own thread
   only copies them, unless every block is in flight: then it hashes one rather than wait. */
#ifndef FUEL_HASH_STREAM_H
#define FUEL_HASH_STREAM_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>

struct hash_stream;

/* A stream hashed with SHA-256, and with MD5 too when MD5; the hashing thread starts with the first
   stream and stops with the last. */
int hash_stream_create(struct hash_stream **stream, bool md5);

/* Appends SIZE bytes (copied; while every block is in flight, hashes one or waits). */
void hash_stream_append(struct hash_stream *stream, const void *bytes, size_t size);

/* Waits until everything appended is hashed, then writes the digests, the size and the first and
   last bytes into DIGESTS (md5 empty without MD5). The stream takes no more bytes. */
void hash_stream_finish(struct hash_stream *stream, struct file_digests *digests);

/* Waits until the hashing thread is done with STREAM and frees it; NULL is allowed. */
void hash_stream_free(struct hash_stream *stream);

#endif
