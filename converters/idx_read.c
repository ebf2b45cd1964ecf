/* Reads IDX headers and data through inflate_file, which also reads uncompressed files. */
#include "idx_read.h"

#include "common/base/error.h"
#include "common/formats/gzip/inflate_file.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

struct idx_reader {
    struct inflate_file *file;
    const char *path;
};

static int read_exactly(struct idx_reader *reader, void *buffer, size_t size, const char *what)
{
    size_t count;
    int status = inflate_file_read(reader->file, buffer, size, &count);
    if (status == EXIT_OK && count == size)
        return EXIT_OK;
    return error_set(status == EXIT_OTHER ? EXIT_OTHER : EXIT_CORRUPT_INPUT, "cannot read %s: %s: %s",
                     what, reader->path,
                     status == EXIT_OK ? "unexpected end of file" : inflate_file_reason(reader->file));
}

static uint32_t big_endian(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static size_t element_bytes(uint8_t type)
{
    switch (type) {
    case IDX_UNSIGNED_BYTE: case IDX_SIGNED_BYTE: return 1;
    case IDX_SHORT: return 2;
    case IDX_INT: case IDX_FLOAT: return 4;
    case IDX_DOUBLE: return 8;
    default: return 0;
    }
}

static int read_header(struct idx_reader *reader, struct idx_header *header)
{
    unsigned char bytes[4 * (1 + IDX_MAX_RANK)];
    int result = read_exactly(reader, bytes, 4, "IDX header");
    if (result != EXIT_OK)
        return result;
    header->magic = big_endian(bytes);
    header->element_type = bytes[2];
    header->rank = bytes[3];
    if (bytes[0] != 0 || bytes[1] != 0 || element_bytes(header->element_type) == 0 ||
        header->rank < 1 || header->rank > IDX_MAX_RANK)
        return error_set(EXIT_CORRUPT_INPUT, "not an IDX file: %s: magic number %u", reader->path,
                         header->magic);
    result = read_exactly(reader, bytes + 4, 4 * (size_t)header->rank, "IDX header");
    for (int axis = 0; result == EXIT_OK && axis < header->rank; axis++)
        header->dimensions[axis] = big_endian(bytes + 4 + 4 * axis);
    return result;
}

/* Deflate turns one compressed byte into at most 1032 bytes (a 258-byte match in under 2 bits). */
enum { DEFLATE_MAXIMUM_RATIO = 1032 };

/* The dimensions are checked against what the file can hold before anyone sizes anything by
   them: its remaining bytes when stored plain, DEFLATE_MAXIMUM_RATIO times its size when
   gzipped. Only for regular files, whose size is known. */
static int check_declared_size(struct idx_reader *reader, const struct idx_header *header)
{
    uint64_t file_size = inflate_file_size(reader->file);
    if (file_size == 0)
        return EXIT_OK;
    bool plain = !inflate_file_compressed(reader->file);
    uint64_t header_size = 4 + 4 * (uint64_t)header->rank;
    uint64_t limit = plain ? (file_size > header_size ? file_size - header_size : 0)
                           : file_size * DEFLATE_MAXIMUM_RATIO;
    uint64_t declared = idx_data_size(header);
    if (declared <= limit)
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT,
                     "IDX header declares more data than the file can hold: %s: %" PRIu64
                     " bytes declared, %s file of %" PRIu64 " bytes",
                     reader->path, declared, plain ? "a plain" : "a gzipped", file_size);
}

int idx_open(struct idx_reader **reader, const char *path, struct idx_header *header,
             unsigned threads)
{
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    (*reader)->path = path;
    int result = inflate_file_open(&(*reader)->file, path, "cannot open", threads);
    if (result != EXIT_OK) {
        free(*reader);
        *reader = NULL;
        return result;
    }
    result = read_header(*reader, header);
    if (result == EXIT_OK)
        result = check_declared_size(*reader, header);
    if (result != EXIT_OK) {
        idx_close(*reader);
        *reader = NULL;
    }
    return result;
}

uint64_t idx_data_size(const struct idx_header *header)
{
    uint64_t size = element_bytes(header->element_type);
    for (int axis = 0; axis < header->rank; axis++)
        if (__builtin_mul_overflow(size, (uint64_t)header->dimensions[axis], &size))
            return UINT64_MAX;
    return size;
}

int idx_read(struct idx_reader *reader, void *buffer, size_t size)
{
    return read_exactly(reader, buffer, size, "IDX data");
}

int idx_finish(struct idx_reader *reader)
{
    unsigned char extra;
    size_t count;
    int status = inflate_file_read(reader->file, &extra, 1, &count);
    if (status != EXIT_OK)
        return error_set(status, "cannot read IDX data: %s: %s", reader->path,
                         inflate_file_reason(reader->file));
    if (count > 0)
        return error_set(EXIT_CORRUPT_INPUT,
                         "cannot read IDX data: %s: more data than the header declares",
                         reader->path);
    return EXIT_OK;
}

void idx_close(struct idx_reader *reader)
{
    if (reader == NULL)
        return;
    inflate_file_close(reader->file);
    free(reader);
}
