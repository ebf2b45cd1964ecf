/* TFRecord framing: each record a little-endian uint64 length, the masked CRC-32C of those 8
   bytes, the data, the masked CRC-32C of the data. */
#include "tfrecord_write.h"

#include "common/base/error.h"
#include "crc32c.h"

#include <string.h>

uint32_t tfrecord_mask(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

static void put_little_endian_32(unsigned char *bytes, uint32_t value)
{
    for (int index = 0; index < 4; index++)
        bytes[index] = (unsigned char)(value >> (8 * index));
}

void tfrecord_header(unsigned char header[TFRECORD_HEADER_SIZE], uint64_t size)
{
    for (int index = 0; index < 8; index++)
        header[index] = (unsigned char)(size >> (8 * index));
    put_little_endian_32(header + 8, tfrecord_mask(crc32c(0, header, 8)));
}

void tfrecord_footer(unsigned char footer[TFRECORD_FOOTER_SIZE], const void *data, size_t size)
{
    put_little_endian_32(footer, tfrecord_mask(crc32c(0, data, size)));
}

size_t tfrecord_encode(unsigned char *output, size_t capacity, const void *data, size_t size)
{
    if (size > SIZE_MAX - TFRECORD_OVERHEAD || capacity < size + TFRECORD_OVERHEAD)
        return 0;
    unsigned char *place = output + TFRECORD_HEADER_SIZE;
    if (place != data)
        memmove(place, data, size);
    tfrecord_header(output, size);
    tfrecord_footer(place + size, place, size);
    return size + TFRECORD_OVERHEAD;
}

int tfrecord_write(tfrecord_write_function write, void *context, const void *data, size_t size)
{
    unsigned char header[TFRECORD_HEADER_SIZE], footer[TFRECORD_FOOTER_SIZE];
    tfrecord_header(header, size);
    tfrecord_footer(footer, data, size);
    int status = write(context, header, sizeof header);
    if (status == EXIT_OK && size > 0)
        status = write(context, data, size);
    if (status == EXIT_OK)
        status = write(context, footer, sizeof footer);
    return status;
}
