/* Shard files: buffered writes, hashed on the way, written back behind the writer. */
#include "shard_file.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { STREAM_BUFFER = 1 << 20 };

static int file_failed(const struct shard_file *file)
{
    return error_set(EXIT_WRITE, "cannot write: %s: %s", file->shown, strerror(errno));
}

int shard_file_open(struct shard_file *file, struct export_set *set, const char *directory,
                    const char *entry)
{
    *file = (struct shard_file){.behind = {.descriptor = -1}};
    snprintf(file->shown, sizeof file->shown, "%s/%s", directory, entry);
    char path[4800];
    int result = export_set_path(set, entry, path, sizeof path);
    if (result == EXIT_OK)
        result = hash_begin(&file->hash, HASH_SHA256);
    if (result != EXIT_OK)
        return result;
    if ((file->stream = fopen(path, "wb")) == NULL) {
        result = file_failed(file);
        shard_file_abandon(file);
        return result;
    }
    if ((file->buffer = malloc(STREAM_BUFFER)) != NULL)
        setvbuf(file->stream, file->buffer, _IOFBF, STREAM_BUFFER);
    write_behind_start(&file->behind, fileno(file->stream));
    return EXIT_OK;
}

int shard_file_write(struct shard_file *file, const void *data, size_t size)
{
    if (size == 0)
        return EXIT_OK;
    if (fwrite(data, 1, size, file->stream) != size)
        return file_failed(file);
    hash_update(file->hash, data, size);
    file->bytes += size;
    write_behind_note(&file->behind, size);
    return EXIT_OK;
}

int shard_file_close(struct shard_file *file, char sha256[HASH_HEX_SIZE])
{
    int result = fclose(file->stream) == 0 ? EXIT_OK : file_failed(file);
    file->stream = NULL;
    hash_finish(file->hash, sha256);
    file->hash = NULL;
    free(file->buffer);
    file->buffer = NULL;
    return result;
}

void shard_file_abandon(struct shard_file *file)
{
    if (file->stream != NULL)
        fclose(file->stream);
    if (file->hash != NULL)
        hash_discard(file->hash);
    free(file->buffer);
    *file = (struct shard_file){.behind = {.descriptor = -1}};
}
