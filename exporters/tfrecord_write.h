/* TFRecord framing: each record a little-endian uint64 length, the masked CRC-32C of those 8
   bytes, the data, the masked CRC-32C of the data. */
#ifndef FUEL_TFRECORD_WRITE_H
#define FUEL_TFRECORD_WRITE_H

#include <stddef.h>
#include <stdint.h>

enum {
    TFRECORD_HEADER_SIZE = 12, /* the length and its masked CRC */
    TFRECORD_FOOTER_SIZE = 4,  /* the data's masked CRC */
    TFRECORD_OVERHEAD = TFRECORD_HEADER_SIZE + TFRECORD_FOOTER_SIZE,
};

/* TensorFlow's mask of a CRC stored next to the data it covers:
   ((crc >> 15) | (crc << 17)) + 0xa282ead8, in uint32 arithmetic. */
uint32_t tfrecord_mask(uint32_t crc);

/* The header of a record of SIZE bytes of data. */
void tfrecord_header(unsigned char header[TFRECORD_HEADER_SIZE], uint64_t size);

/* The footer of a record holding the SIZE bytes of DATA. */
void tfrecord_footer(unsigned char footer[TFRECORD_FOOTER_SIZE], const void *data, size_t size);

/* Writes the record of the SIZE bytes of DATA into OUTPUT, which has room for CAPACITY bytes;
   returns its size, SIZE + TFRECORD_OVERHEAD, or 0 when it does not fit. DATA may already be in
   place at OUTPUT + TFRECORD_HEADER_SIZE (then it is not copied), or lie anywhere else. */
size_t tfrecord_encode(unsigned char *output, size_t capacity, const void *data, size_t size);

/* Writes SIZE bytes, returns an exit code (EXIT_OK when all were written). */
typedef int (*tfrecord_write_function)(void *context, const void *bytes, size_t size);

/* Writes the record of the SIZE bytes of DATA through WRITE (header, data, footer); returns the
   first exit code other than EXIT_OK that WRITE returned, or EXIT_OK. */
int tfrecord_write(tfrecord_write_function write, void *context, const void *data, size_t size);

#endif
