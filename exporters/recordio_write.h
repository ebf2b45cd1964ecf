/* dmlc-core's RecordIO (MXNet's .rec): magic, cflag and length word, payload, padding to 4 bytes. */
#ifndef FUEL_RECORDIO_WRITE_H
#define FUEL_RECORDIO_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RECORDIO_MAGIC 0xced7230au
/* The length field holds 29 bits; a record's payload must be shorter. */
#define RECORDIO_MAX_PAYLOAD ((size_t)1 << 29)
/* MXNet's image record header: uint32 flag, float label, uint64 id, uint64 id2, little endian. */
#define RECORDIO_IMAGE_HEADER_SIZE 24

/* Writes one record holding the SIZE bytes at PAYLOAD to STREAM, split into parts (cflag 1, 2, 3)
   where the payload holds the magic at a 4-byte-aligned offset, as dmlc-core's writer does; adds
   to *WRITTEN the bytes written. EXIT_USAGE when SIZE is too large, EXIT_WRITE when STREAM fails:
   "cannot write: PATH: " and the system's reason (PATH names STREAM's file). */
int recordio_write(FILE *stream, const char *path, const void *payload, size_t size,
                   uint64_t *written);

/* Fills HEADER with MXNet's image record header. FLAG is 0 for a single LABEL, or the number of
   label floats that follow the header (then LABEL is ignored by readers). */
void recordio_image_header(uint8_t header[RECORDIO_IMAGE_HEADER_SIZE], uint32_t flag, float label,
                           uint64_t id, uint64_t id2);

#endif
