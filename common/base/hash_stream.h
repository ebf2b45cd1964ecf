/* Streams hashed on threads of their own: the bytes appended to a stream are copied into blocks
   that two hashing threads shared by every stream (one SHA-256, one MD5, side by side) hash in
   order, so that a reader's own thread only copies them, or waits while every block is in flight. */
#ifndef FUEL_HASH_STREAM_H
#define FUEL_HASH_STREAM_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>

struct hash_stream;

/* A stream hashed with SHA-256, and with MD5 too when MD5; the hashing threads start with the first
   stream and stop with the last. */
int hash_stream_create(struct hash_stream **stream, bool md5);

/* Appends SIZE bytes (copied; while every block is in flight, waits for one). */
void hash_stream_append(struct hash_stream *stream, const void *bytes, size_t size);

/* Waits until everything appended is hashed, then writes the digests, the size and the first and
   last bytes into DIGESTS (md5 empty without MD5). The stream takes no more bytes. */
void hash_stream_finish(struct hash_stream *stream, struct file_digests *digests);

/* Waits until the hashing threads are done with STREAM and frees it; NULL is allowed. */
void hash_stream_free(struct hash_stream *stream);

#endif
