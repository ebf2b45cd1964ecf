/* Hashes a file's inflated content, so a raw file can be verified by what it holds rather than by
   its compressed bytes. */
#include "inflated_digest.h"

#include "common/base/error.h"
#include "inflate_file.h"

int inflated_digest(const char *path, char hex[HASH_HEX_SIZE], uint64_t *size)
{
    struct inflate_file *file;
    struct hash *hash;
    int result = inflate_file_open(&file, path, "cannot read", 1);
    if (result != EXIT_OK)
        return result;
    result = hash_begin(&hash, HASH_SHA256);
    if (result != EXIT_OK) {
        inflate_file_close(file);
        return result;
    }
    *size = 0;
    const void *data;
    size_t count;
    while ((result = inflate_file_block(file, &data, &count)) == EXIT_OK && count > 0) {
        hash_update(hash, data, count);
        *size += count;
    }
    if (result == EXIT_OK)
        hash_finish(hash, hex);
    else {
        hash_discard(hash);
        error_set(result, "cannot inflate: %s: %s", path, inflate_file_reason(file));
    }
    inflate_file_close(file);
    return result;
}
