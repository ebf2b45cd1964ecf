/* Content digests: the canonical encoding of content_digest.h fed to SHA-256 block by block. */
#include "content_digest.h"

#include "common/base/error.h"
#include "common/h5py/content_blocks.h"
#include "common/h5py/h5py_vlen_examples.h"

#include <stdlib.h>
#include <string.h>

static void encode_u64(struct hash *hash, uint64_t value)
{
    unsigned char bytes[8];
    for (int index = 0; index < 8; index++)
        bytes[index] = (unsigned char)(value >> (8 * index));
    hash_update(hash, bytes, sizeof bytes);
}

static void encode_string(struct hash *hash, const char *text)
{
    size_t length = strlen(text);
    encode_u64(hash, length);
    hash_update(hash, text, length);
}

/* Hashes SOURCE's elements in C order, read in blocks, and closes it. */
static int values_hash(struct hash *hash, struct content_source *source)
{
    struct content_walk walk;
    content_walk_begin(&walk, source->rank, source->shape, 0, source->element_size,
                       source->buffer_size);
    hsize_t start[H5S_MAX_RANK], count[H5S_MAX_RANK];
    size_t bytes;
    int result = EXIT_OK;
    while (result == EXIT_OK && content_walk_next(&walk, start, count))
        if ((result = content_source_read(source, start, count, &bytes)) == EXIT_OK)
            hash_update(hash, source->buffer, bytes);
    content_source_close(source);
    return result;
}

static int fixed_digest(struct hash *hash, const struct h5py_file *file, const char *name)
{
    struct content_source source;
    int result = content_source_open(&source, file, name);
    if (result != EXIT_OK)
        return result;
    encode_string(hash, "fixed");
    encode_u64(hash, (uint64_t)source.rank);
    for (int axis = 0; axis < source.rank; axis++)
        encode_u64(hash, source.shape[axis]);
    return values_hash(hash, &source);
}

static int variable_digest(struct hash *hash, const struct h5py_file *file, const char *name)
{
    struct h5py_vlen_examples examples;
    int result = h5py_vlen_examples_open(&examples, file, name);
    if (result != EXIT_OK)
        return result;
    encode_string(hash, "variable");
    encode_u64(hash, examples.count);
    encode_u64(hash, (uint64_t)examples.example_rank);
    for (uint64_t index = 0; result == EXIT_OK && index < examples.count; index++) {
        uint64_t shape[H5PY_VLEN_MAX_RANK];
        void *data;
        size_t count;
        result = content_vlen_example(&examples, index, shape, &data, &count);
        for (int axis = 0; result == EXIT_OK && axis < examples.example_rank; axis++)
            encode_u64(hash, shape[axis]);
        if (result == EXIT_OK) {
            encode_u64(hash, count);
            hash_update(hash, data, count * examples.element_size);
        }
        free(data);
    }
    h5py_vlen_examples_close(&examples);
    return result;
}

int content_source_digest(const struct h5py_file *file, const struct h5py_file_source *source,
                          char sha256[HASH_HEX_SIZE])
{
    struct hash *hash;
    int result = hash_begin(&hash, HASH_SHA256);
    if (result != EXIT_OK)
        return result;
    encode_string(hash, "fuel-source-digest-1");
    encode_string(hash, source->dtype != NULL ? source->dtype : "");
    result = source->variable_length ? variable_digest(hash, file, source->name)
                                     : fixed_digest(hash, file, source->name);
    if (result == EXIT_OK)
        hash_finish(hash, sha256);
    else
        hash_discard(hash);
    return result;
}

/* The values of a split row's indices dataset as I64, in order, with their count. */
static int indices_encode(struct hash *hash, const struct h5py_file *file, const char *name)
{
    struct content_source source;
    int result = content_source_open_as(&source, file, name, H5T_STD_I64LE);
    if (result != EXIT_OK)
        return result;
    uint64_t values = 1;
    for (int axis = 0; axis < source.rank; axis++)
        values *= source.shape[axis];
    encode_string(hash, "indices");
    encode_u64(hash, values);
    return values_hash(hash, &source);
}

static int row_encode(struct hash *hash, const struct h5py_file *file,
                      const struct h5py_split_row *row)
{
    encode_string(hash, row->split);
    encode_string(hash, row->source);
    encode_u64(hash, (uint64_t)row->start);
    encode_u64(hash, (uint64_t)row->stop);
    unsigned char available = row->available ? 1 : 0;
    hash_update(hash, &available, 1);
    encode_string(hash, row->comment);
    if (row->indices == INDICES_NONE)
        encode_string(hash, "contiguous");
    else if (row->indices == INDICES_DANGLING)
        encode_string(hash, "dangling");
    else
        return indices_encode(hash, file, row->indices_name);
    return EXIT_OK;
}

static int row_compare(const void *left, const void *right)
{
    const struct h5py_split_row *const *a = left, *const *b = right;
    int order = strcmp((*a)->split, (*b)->split);
    if (order == 0)
        order = strcmp((*a)->source, (*b)->source);
    return order != 0 ? order : (*a < *b ? -1 : *a > *b);
}

static int rows_encode(struct hash *hash, const struct h5py_file *file)
{
    const struct h5py_split_row **rows = malloc((file->row_count + 1) * sizeof *rows);
    if (rows == NULL)
        return error_set(EXIT_OTHER, "cannot digest: %s: out of memory", file->path);
    for (size_t index = 0; index < file->row_count; index++)
        rows[index] = &file->rows[index];
    qsort(rows, file->row_count, sizeof *rows, row_compare);
    encode_u64(hash, file->row_count);
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < file->row_count; index++)
        result = row_encode(hash, file, rows[index]);
    free(rows);
    return result;
}

static void source_encode(struct hash *hash, const struct h5py_file_source *source,
                          const struct content_source_digest *digest)
{
    encode_string(hash, source->name);
    encode_string(hash, digest->sha256);
    int rank = source->present ? source->rank : 0;
    encode_u64(hash, (uint64_t)rank);
    for (int axis = 0; axis < rank; axis++)
        encode_string(hash, source->axis_labels[axis]);
    encode_u64(hash, source->shape_label_count);
    for (size_t index = 0; index < source->shape_label_count; index++)
        encode_string(hash, source->shape_labels[index]);
}

static int digest_compare(const void *left, const void *right)
{
    const struct content_source_digest *a = left, *b = right;
    return strcmp(a->name, b->name);
}

static int sources_digest(const struct h5py_file *file, struct content_digest *digest)
{
    digest->sources = calloc(file->source_count + 1, sizeof *digest->sources);
    if (digest->sources == NULL)
        return error_set(EXIT_OTHER, "cannot digest: %s: out of memory", file->path);
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < file->source_count; index++) {
        const struct h5py_file_source *source = &file->sources[index];
        struct content_source_digest *entry = &digest->sources[digest->source_count++];
        entry->present = source->present;
        if ((entry->name = strdup(source->name)) == NULL)
            result = error_set(EXIT_OTHER, "cannot digest: %s: out of memory", file->path);
        else if (source->present)
            result = content_source_digest(file, source, entry->sha256);
    }
    if (result == EXIT_OK)
        qsort(digest->sources, digest->source_count, sizeof *digest->sources, digest_compare);
    return result;
}

int content_digest_compute(const struct h5py_file *file, struct content_digest *digest)
{
    *digest = (struct content_digest){0};
    struct hash *hash = NULL;
    int result = sources_digest(file, digest);
    if (result == EXIT_OK)
        result = hash_begin(&hash, HASH_SHA256);
    if (result == EXIT_OK) {
        encode_string(hash, "fuel-content-digest-1");
        encode_u64(hash, digest->source_count);
        for (size_t index = 0; index < digest->source_count; index++)
            source_encode(hash, h5py_file_source(file, digest->sources[index].name),
                          &digest->sources[index]);
        result = rows_encode(hash, file);
    }
    if (result == EXIT_OK)
        hash_finish(hash, digest->sha256);
    else {
        hash_discard(hash);
        content_digest_free(digest);
    }
    return result;
}

void content_digest_free(struct content_digest *digest)
{
    for (size_t index = 0; index < digest->source_count; index++)
        free(digest->sources[index].name);
    free(digest->sources);
    *digest = (struct content_digest){0};
}
