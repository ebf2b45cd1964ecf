/* A gzip member's header (RFC 1952), read byte by byte in whatever pieces it comes, so the inflate
   backend is handed a header it reads in one call. */
#ifndef FUEL_INFLATE_GZIP_HEADER_H
#define FUEL_INFLATE_GZIP_HEADER_H

#include <stddef.h>
#include <stdint.h>

enum gzip_header_step {
    GZIP_HEADER_MORE,     /* every byte given was taken: the header goes on */
    GZIP_HEADER_DONE,     /* the header ended; the bytes after it were left */
    GZIP_HEADER_NOT_GZIP, /* the first or second byte is not gzip's magic (left untaken) */
    GZIP_HEADER_REFUSED,  /* an unknown method, reserved flags or a wrong header CRC: the reason */
};

/* The fixed header handed to the backend for every member: deflate, no flags, no name. */
#define GZIP_HEADER_PLAIN_SIZE 10
extern const unsigned char gzip_header_plain[GZIP_HEADER_PLAIN_SIZE];

struct gzip_header {
    int field;              /* the field being read */
    size_t field_bytes;     /* bytes of it read so far */
    uint32_t value;         /* a multi-byte field's little-endian value so far */
    unsigned flags;
    uint32_t crc;           /* CRC-32 of the header bytes, for FHCRC */
    char reason[96];
};

void gzip_header_start(struct gzip_header *header);

/* Takes bytes of the header from *INPUT (*SIZE bytes), advancing both. */
enum gzip_header_step gzip_header_read(struct gzip_header *header, const unsigned char **input,
                                       size_t *size);

#endif
