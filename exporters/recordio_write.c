/* Writes dmlc-core RecordIO records (the layout of MXNet's .rec files) and image record headers. */
#include "recordio_write.h"

#include "common/base/error.h"

#include <errno.h>
#include <string.h>

static void put_u32(uint8_t *out, uint32_t value)
{
    for (int byte = 0; byte < 4; byte++)
        out[byte] = (uint8_t)(value >> (8 * byte));
}

static void put_u64(uint8_t *out, uint64_t value)
{
    for (int byte = 0; byte < 8; byte++)
        out[byte] = (uint8_t)(value >> (8 * byte));
}

/* Stores VALUE little endian at OUT. */
static void recordio_put_float(uint8_t out[4], float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    put_u32(out, bits);
}

void recordio_image_header(uint8_t header[RECORDIO_IMAGE_HEADER_SIZE], uint32_t flag, float label,
                           uint64_t id, uint64_t id2)
{
    put_u32(header, flag);
    recordio_put_float(header + 4, label);
    put_u64(header + 8, id);
    put_u64(header + 16, id2);
}

/* One part: magic, cflag << 29 | length, the bytes. */
static int part_write(FILE *stream, unsigned cflag, const uint8_t *bytes, size_t length,
                      uint64_t *written)
{
    uint8_t head[8];
    put_u32(head, RECORDIO_MAGIC);
    put_u32(head + 4, (uint32_t)cflag << 29 | (uint32_t)length);
    if (fwrite(head, 1, sizeof head, stream) != sizeof head ||
        (length > 0 && fwrite(bytes, 1, length, stream) != length))
        return -1;
    *written += sizeof head + length;
    return 0;
}

static int is_magic(const uint8_t *bytes)
{
    return bytes[0] == (RECORDIO_MAGIC & 0xff) && bytes[1] == (RECORDIO_MAGIC >> 8 & 0xff) &&
           bytes[2] == (RECORDIO_MAGIC >> 16 & 0xff) && bytes[3] == RECORDIO_MAGIC >> 24;
}

/* dmlc-core drops each aligned magic from the payload and ends the part before it; the reader
   puts the magic back between parts. The padding after the last part aligns the whole record. */
int recordio_write(FILE *stream, const char *path, const void *payload, size_t size,
                   uint64_t *written)
{
    if (size >= RECORDIO_MAX_PAYLOAD)
        return error_set(EXIT_USAGE, "cannot write: %s: a record of %zu bytes exceeds RecordIO's "
                                     "limit of 2^29", path, size);
    const uint8_t *bytes = payload;
    size_t part_start = 0;
    errno = 0;
    int failed = 0;
    for (size_t offset = 0; offset + 4 <= size && !failed; offset += 4) {
        if (!is_magic(bytes + offset))
            continue;
        failed = part_write(stream, part_start == 0 ? 1 : 2, bytes + part_start,
                            offset - part_start, written);
        part_start = offset + 4;
    }
    if (!failed)
        failed = part_write(stream, part_start == 0 ? 0 : 3, bytes + part_start, size - part_start,
                            written);
    static const uint8_t zeros[4];
    size_t padding = (4 - size % 4) % 4;
    if (!failed && padding > 0)
        failed = fwrite(zeros, 1, padding, stream) != padding;
    if (failed)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path,
                         errno != 0 ? strerror(errno) : "the stream refused a record");
    *written += padding;
    return EXIT_OK;
}
