/* MD5 and SHA-256 digests through OpenSSL's EVP interface, streamed or of a whole file. */
#ifndef FUEL_HASH_H
#define FUEL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hash_algorithm { HASH_MD5, HASH_SHA256 };

/* Room for the longest digest in hex, with its terminating NUL. */
#define HASH_HEX_SIZE 65

struct hash;

int hash_begin(struct hash **hash, enum hash_algorithm algorithm);
void hash_update(struct hash *hash, const void *data, size_t size);
/* Writes the lowercase hex digest into HEX and frees the hash. */
void hash_finish(struct hash *hash, char hex[HASH_HEX_SIZE]);
void hash_discard(struct hash *hash);

/* The longest binary digest (SHA-256's). */
#define HASH_MAX_BYTES 32

/* Writes the binary digest of what HASH was fed into DIGEST and starts HASH again, empty: one hash
   for many short messages (every example of a source). */
void hash_take(struct hash *hash, unsigned char digest[HASH_MAX_BYTES]);

/* Digest and size of the file at PATH. EXIT_MISSING_INPUT when it cannot be opened, EXIT_OTHER
   on a read error. */
int hash_file(const char *path, enum hash_algorithm algorithm, char hex[HASH_HEX_SIZE],
              uint64_t *size);

/* How many of a file's first bytes hash_file_digests keeps (where raw files carry marks). */
#define HASH_HEAD_BYTES 512

/* How many of a file's last bytes hash_file_digests keeps (where a zip's comment ends). */
#define HASH_TAIL_BYTES 128

/* A file's size, MD5 (when asked for) and SHA-256, and its first and last bytes. */
struct file_digests {
    uint64_t size;
    char md5[HASH_HEX_SIZE];
    char sha256[HASH_HEX_SIZE];
    unsigned char head[HASH_HEAD_BYTES];
    size_t head_length;
    unsigned char tail[HASH_TAIL_BYTES];
    size_t tail_length;
};

/* The SHA-256 (and with MD5 the MD5, else md5 is empty) of the file at PATH in one read, its
   first and last bytes. Errors as hash_file's. */
int hash_file_digests(const char *path, bool md5, struct file_digests *digests);

/* As hash_file_digests, of the SIZE bytes at BYTES: a file already read whole. */
int hash_memory_digests(const void *bytes, size_t size, bool md5, struct file_digests *digests);

/* The algorithm whose hex digest has LENGTH characters (32: md5, 64: sha256); -1 otherwise. */
int hash_algorithm_for_length(size_t length);

#endif
