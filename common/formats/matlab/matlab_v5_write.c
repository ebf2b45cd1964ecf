/* MAT-file level 5 elements (MathWorks' "MAT-File Format", chapter 1): each variable is a miMATRIX
   element (array flags, dimensions, name, real part) deflated inside a miCOMPRESSED element, whose
   byte count is only known at the end and is patched in then. */
#include "matlab_v5_write.h"

#include "common/base/error.h"
#include "matlab_v5_read.h"
#include "matlab_v5_format.h"

#include <stdbool.h>
#include <string.h>

static void little32(unsigned char *bytes, uint32_t value)
{
    for (int index = 0; index < 4; index++)
        bytes[index] = (unsigned char)(value >> (8 * index));
}

void matlab_header_fill(unsigned char header[128], const char *text, unsigned version)
{
    size_t length = strlen(text) < 116 ? strlen(text) : 116;
    memset(header, ' ', 116);
    memcpy(header, text, length);
    memset(header + 116, 0, 8);
    header[124] = (unsigned char)(version & 0xff);
    header[125] = (unsigned char)(version >> 8);
    header[126] = 'I';
    header[127] = 'M';
}

int matlab_writer_open(struct matlab_writer *writer, const char *path, const char *text)
{
    memset(writer, 0, sizeof *writer);
    writer->path = path;
    writer->file = fopen(path, "wb");
    if (writer->file == NULL)
        return error_set(EXIT_WRITE, "cannot create: %s", path);
    unsigned char header[128];
    matlab_header_fill(header, text, 0x0100);
    fwrite(header, 1, sizeof header, writer->file);
    return EXIT_OK;
}

static void deflate_bytes(struct matlab_writer *writer, const void *data, size_t size, int flush)
{
    unsigned char out[65536];
    writer->stream.next_in = (Bytef *)data;
    writer->stream.avail_in = (uInt)size;
    do {
        writer->stream.next_out = out;
        writer->stream.avail_out = sizeof out;
        if (deflate(&writer->stream, flush) == Z_STREAM_ERROR)
            writer->failed = 1;
        fwrite(out, 1, sizeof out - writer->stream.avail_out, writer->file);
    } while (writer->stream.avail_out == 0 && !writer->failed);
}

/* A subelement: tag (type, byte count), the bytes, zero padding to 8 bytes. */
static void put_element(struct matlab_writer *writer, uint32_t type, const void *data, size_t size)
{
    unsigned char tag[8], padding[8] = {0};
    little32(tag, type);
    little32(tag + 4, (uint32_t)size);
    deflate_bytes(writer, tag, sizeof tag, Z_NO_FLUSH);
    deflate_bytes(writer, data, size, Z_NO_FLUSH);
    deflate_bytes(writer, padding, (8 - size % 8) % 8, Z_NO_FLUSH);
}

static uint64_t padded(uint64_t size)
{
    return (size + 7) / 8 * 8;
}

/* Writes the tag of a compressed element, its size filled in at its end, and starts deflate. */
static int compressed_begin(struct matlab_writer *writer)
{
    unsigned char tag[8] = {0};
    little32(tag, MI_COMPRESSED);
    writer->size_offset = ftell(writer->file) + 4;
    fwrite(tag, 1, sizeof tag, writer->file);
    if (deflateInit(&writer->stream, Z_DEFAULT_COMPRESSION) != Z_OK)
        return error_set(EXIT_OTHER, "cannot write: %s: deflate failed", writer->path);
    return EXIT_OK;
}

int matlab_writer_begin(struct matlab_writer *writer, const char *name,
                        enum matlab_writer_class class, const uint32_t *dimensions, int rank)
{
    int started = compressed_begin(writer);
    if (started != EXIT_OK)
        return started;
    uint64_t count = 1;
    unsigned char flags[8] = {0}, sizes[4 * 8];
    for (int index = 0; index < rank; index++) {
        count *= dimensions[index];
        little32(sizes + 4 * index, dimensions[index]);
    }
    bool is_double = class == MATLAB_WRITE_DOUBLE;
    writer->data_bytes = count * (is_double ? 8 : 1);
    little32(flags, class == MATLAB_WRITE_UINT8 ? MATLAB_UINT8 : MATLAB_DOUBLE);
    uint64_t matrix_bytes = 16 + 8 + padded(4 * (uint64_t)rank) + 8 + padded(strlen(name)) + 8 +
                            padded(writer->data_bytes);
    unsigned char matrix[8];
    little32(matrix, MI_MATRIX);
    little32(matrix + 4, (uint32_t)matrix_bytes);
    deflate_bytes(writer, matrix, sizeof matrix, Z_NO_FLUSH);
    put_element(writer, MI_UINT32, flags, sizeof flags);
    put_element(writer, MI_INT32, sizes, 4 * (size_t)rank);
    put_element(writer, MI_INT8, name, strlen(name));
    unsigned char data_tag[8];
    little32(data_tag, is_double ? MI_DOUBLE : MI_UINT8);
    little32(data_tag + 4, (uint32_t)writer->data_bytes);
    deflate_bytes(writer, data_tag, sizeof data_tag, Z_NO_FLUSH);
    return EXIT_OK;
}

int matlab_writer_data(struct matlab_writer *writer, const void *data, size_t size)
{
    deflate_bytes(writer, data, size, Z_NO_FLUSH);
    if (!writer->failed)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path, error_system_reason());
}

int matlab_writer_end(struct matlab_writer *writer)
{
    unsigned char padding[8] = {0}, size[4];
    deflate_bytes(writer, padding, (size_t)(padded(writer->data_bytes) - writer->data_bytes),
                  Z_FINISH);
    deflateEnd(&writer->stream);
    long end = ftell(writer->file);
    little32(size, (uint32_t)(end - writer->size_offset - 4));
    if (fseek(writer->file, writer->size_offset, SEEK_SET) != 0 ||
        fwrite(size, 1, sizeof size, writer->file) != sizeof size ||
        fseek(writer->file, end, SEEK_SET) != 0)
        writer->failed = 1;
    if (!writer->failed)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path, error_system_reason());
}

int matlab_writer_matrix(struct matlab_writer *writer, const void *matrix, size_t count)
{
    int started = compressed_begin(writer);
    if (started != EXIT_OK)
        return started;
    deflate_bytes(writer, matrix, count, Z_NO_FLUSH);
    writer->data_bytes = 0;
    return matlab_writer_end(writer);
}

int matlab_writer_close(struct matlab_writer *writer)
{
    int failed = writer->failed || ferror(writer->file);
    if (fclose(writer->file) != 0 || failed)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path,
                         error_system_reason());
    return EXIT_OK;
}
