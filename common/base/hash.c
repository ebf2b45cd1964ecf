/* Streams bytes through OpenSSL EVP digests and renders them as lowercase hex. */
#include "hash.h"

#include "error.h"
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hash {
    EVP_MD_CTX *context;
    const EVP_MD *digest;
};

int hash_begin(struct hash **hash, enum hash_algorithm algorithm)
{
    *hash = malloc(sizeof **hash);
    if (*hash == NULL)
        return error_set(EXIT_OTHER, "cannot hash: out of memory");
    (*hash)->context = EVP_MD_CTX_new();
    (*hash)->digest = algorithm == HASH_MD5 ? EVP_md5() : EVP_sha256();
    if ((*hash)->context == NULL ||
        EVP_DigestInit_ex((*hash)->context, (*hash)->digest, NULL) != 1) {
        hash_discard(*hash);
        *hash = NULL;
        return error_set(EXIT_OTHER, "cannot hash: OpenSSL digest unavailable");
    }
    return EXIT_OK;
}

void hash_update(struct hash *hash, const void *data, size_t size)
{
    EVP_DigestUpdate(hash->context, data, size);
}

void hash_finish(struct hash *hash, char hex[HASH_HEX_SIZE])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(hash->context, digest, &length);
    for (unsigned int index = 0; index < length && 2 * index + 2 < HASH_HEX_SIZE; index++)
        snprintf(hex + 2 * index, 3, "%02x", digest[index]);
    hash_discard(hash);
}

void hash_take(struct hash *hash, unsigned char digest[HASH_MAX_BYTES])
{
    unsigned int length = 0;
    EVP_DigestFinal_ex(hash->context, digest, &length);
    EVP_DigestInit_ex(hash->context, hash->digest, NULL);
}

void hash_discard(struct hash *hash)
{
    if (hash == NULL)
        return;
    EVP_MD_CTX_free(hash->context);
    free(hash);
}

/* Feeds the file behind DESCRIPTOR to each of COUNT hashes; keeps its first HEAD_SIZE bytes in
   HEAD (when HEAD is not NULL). */
static int hash_descriptor(int descriptor, const char *path, struct hash *const *hashes,
                           size_t count, uint64_t *size, unsigned char *head, size_t head_size,
                           size_t *head_length)
{
    enum { BLOCK = 1 << 20 };
    unsigned char *buffer = malloc(BLOCK);
    if (buffer == NULL)
        return error_set(EXIT_OTHER, "cannot hash: %s: out of memory", path);
    *size = 0;
    ssize_t read_count;
    while ((read_count = read(descriptor, buffer, BLOCK)) != 0) {
        if (read_count < 0 && errno == EINTR)
            continue;
        if (read_count < 0) {
            free(buffer);
            return error_set(EXIT_OTHER, "cannot read: %s: %s", path, strerror(errno));
        }
        for (size_t index = 0; index < count; index++)
            hash_update(hashes[index], buffer, (size_t)read_count);
        if (head != NULL && *head_length < head_size) {
            size_t kept = head_size - *head_length < (size_t)read_count ? head_size - *head_length
                                                                         : (size_t)read_count;
            memcpy(head + *head_length, buffer, kept);
            *head_length += kept;
        }
        *size += (uint64_t)read_count;
    }
    free(buffer);
    return EXIT_OK;
}

int hash_file(const char *path, enum hash_algorithm algorithm, char hex[HASH_HEX_SIZE],
              uint64_t *size)
{
    int descriptor = input_file_open(path, NULL);
    if (descriptor < 0)
        return input_open_failure(path);
    struct hash *hash;
    int result = hash_begin(&hash, algorithm);
    if (result == EXIT_OK)
        result = hash_descriptor(descriptor, path, &hash, 1, size, NULL, 0, NULL);
    if (result == EXIT_OK)
        hash_finish(hash, hex);
    else
        hash_discard(hash);
    close(descriptor);
    return result;
}

/* Keeps the last HASH_TAIL_BYTES of the file just hashed in DIGESTS->tail. */
static int read_tail(int descriptor, const char *path, struct file_digests *digests)
{
    size_t wanted = digests->size < HASH_TAIL_BYTES ? (size_t)digests->size : HASH_TAIL_BYTES;
    ssize_t read_count;
    do
        read_count = pread(descriptor, digests->tail, wanted, (off_t)(digests->size - wanted));
    while (read_count < 0 && errno == EINTR);
    if (read_count < 0)
        return error_set(EXIT_OTHER, "cannot read: %s: %s", path, strerror(errno));
    digests->tail_length = (size_t)read_count;
    return EXIT_OK;
}

int hash_file_digests(const char *path, bool md5, struct file_digests *digests)
{
    *digests = (struct file_digests){0};
    int descriptor = input_file_open(path, NULL);
    if (descriptor < 0)
        return input_open_failure(path);
    /* hashes[0] the SHA-256, hashes[1] the MD5 when asked for. */
    struct hash *hashes[2] = {NULL, NULL};
    size_t count = md5 ? 2 : 1;
    int result = hash_begin(&hashes[0], HASH_SHA256);
    if (result == EXIT_OK && md5)
        result = hash_begin(&hashes[1], HASH_MD5);
    if (result == EXIT_OK)
        result = hash_descriptor(descriptor, path, hashes, count, &digests->size, digests->head,
                                 sizeof digests->head, &digests->head_length);
    if (result == EXIT_OK)
        result = read_tail(descriptor, path, digests);
    if (result == EXIT_OK) {
        hash_finish(hashes[0], digests->sha256);
        if (md5)
            hash_finish(hashes[1], digests->md5);
    } else {
        hash_discard(hashes[0]);
        hash_discard(hashes[1]);
    }
    close(descriptor);
    return result;
}

int hash_memory_digests(const void *bytes, size_t size, bool md5, struct file_digests *digests)
{
    const unsigned char *data = bytes;
    *digests = (struct file_digests){.size = size};
    digests->head_length = size < HASH_HEAD_BYTES ? size : HASH_HEAD_BYTES;
    digests->tail_length = size < HASH_TAIL_BYTES ? size : HASH_TAIL_BYTES;
    if (size > 0) {
        memcpy(digests->head, data, digests->head_length);
        memcpy(digests->tail, data + size - digests->tail_length, digests->tail_length);
    }
    struct hash *hash;
    int result = hash_begin(&hash, HASH_SHA256);
    if (result == EXIT_OK) {
        hash_update(hash, data, size);
        hash_finish(hash, digests->sha256);
    }
    if (result == EXIT_OK && md5 && (result = hash_begin(&hash, HASH_MD5)) == EXIT_OK) {
        hash_update(hash, data, size);
        hash_finish(hash, digests->md5);
    }
    return result;
}

int hash_algorithm_for_length(size_t length)
{
    if (length == 32)
        return HASH_MD5;
    if (length == 64)
        return HASH_SHA256;
    return -1;
}
