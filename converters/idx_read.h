/* Streams IDX files (LeCun's MNIST format), gzip-compressed or plain, through the inflater. */
#ifndef FUEL_IDX_READ_H
#define FUEL_IDX_READ_H

#include <stddef.h>
#include <stdint.h>

#define IDX_MAX_RANK 4

/* The element types the third byte of the magic number names. */
enum idx_element_type {
    IDX_UNSIGNED_BYTE = 0x08,
    IDX_SIGNED_BYTE = 0x09,
    IDX_SHORT = 0x0B,
    IDX_INT = 0x0C,
    IDX_FLOAT = 0x0D,
    IDX_DOUBLE = 0x0E,
};

struct idx_header {
    uint32_t magic;          /* e.g. 2051 (images), 2049 (labels) */
    uint8_t element_type;    /* an idx_element_type */
    int rank;
    uint32_t dimensions[IDX_MAX_RANK];
};

struct idx_reader;

/* Opens PATH (inflated on a thread of its own when THREADS is above 1: inflate_file_open) and
   reads its header. EXIT_MISSING_INPUT when it cannot be opened, EXIT_CORRUPT_INPUT when the
   header is truncated or not an IDX header. */
int idx_open(struct idx_reader **reader, const char *path, struct idx_header *header,
             unsigned threads);

/* Bytes of data the header declares (product of dimensions times element size). */
uint64_t idx_data_size(const struct idx_header *header);

/* Reads exactly SIZE bytes of data; EXIT_CORRUPT_INPUT if the file is truncated or corrupt. */
int idx_read(struct idx_reader *reader, void *buffer, size_t size);

/* Checks that the data ended where the header said and the gzip trailer (CRC, length) holds. */
int idx_finish(struct idx_reader *reader);

void idx_close(struct idx_reader *reader);

#endif
