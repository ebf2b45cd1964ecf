/* Reads gzip member headers for the inflater. ISA-L 2.30 keeps the flags of a header it has read
   only in part in a variable it does not save between calls (valgrind: an uninitialised read), so a
   header fed in pieces got another verdict than the same header whole; the inflater now reads the
   header here, refuses what gzip refuses, and hands the backend gzip_header_plain in one piece. */
#include "inflate_gzip_header.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

enum field {
    FIELD_MAGIC_1,
    FIELD_MAGIC_2,
    FIELD_METHOD,
    FIELD_FLAGS,
    FIELD_TIME_AND_SYSTEM, /* MTIME (4 bytes), XFL, OS */
    FIELD_EXTRA_LENGTH,
    FIELD_EXTRA,
    FIELD_NAME,
    FIELD_COMMENT,
    FIELD_HEADER_CRC,
    FIELD_DONE,
};

enum {
    FLAG_HEADER_CRC = 0x02,
    FLAG_EXTRA = 0x04,
    FLAG_NAME = 0x08,
    FLAG_COMMENT = 0x10,
    FLAGS_RESERVED = 0xe0,
    DEFLATE_METHOD = 8,
};

/* zlib's crc32 counts in 32 bits. */
#define RUN_MAXIMUM ((size_t)1 << 30)

/* OS 255: unknown; the backends read only the magic, the method and the flags. */
const unsigned char gzip_header_plain[GZIP_HEADER_PLAIN_SIZE] = {0x1f, 0x8b, DEFLATE_METHOD, 0,
                                                                 0,    0,    0,              0,
                                                                 0,    0xff};

void gzip_header_start(struct gzip_header *header)
{
    memset(header, 0, sizeof *header);
    header->crc = (uint32_t)crc32(0, Z_NULL, 0);
}

/* The field after FIELD, skipping those the flags leave out. */
static int field_next(const struct gzip_header *header, int field)
{
    static const unsigned flag_of[] = {
        [FIELD_EXTRA_LENGTH] = FLAG_EXTRA, [FIELD_EXTRA] = FLAG_EXTRA,
        [FIELD_NAME] = FLAG_NAME,          [FIELD_COMMENT] = FLAG_COMMENT,
        [FIELD_HEADER_CRC] = FLAG_HEADER_CRC,
    };
    for (field++; field < FIELD_DONE; field++) {
        if (field < FIELD_EXTRA_LENGTH || (header->flags & flag_of[field]) != 0)
            break;
    }
    return field == FIELD_EXTRA && header->value == 0 ? field_next(header, field) : field;
}

static enum gzip_header_step refused(struct gzip_header *header, const char *reason)
{
    snprintf(header->reason, sizeof header->reason, "%s", reason);
    return GZIP_HEADER_REFUSED;
}

/* A field of fixed size or value: takes one byte BYTE. */
static enum gzip_header_step byte_take(struct gzip_header *header, unsigned char byte)
{
    static const size_t sizes[] = {[FIELD_TIME_AND_SYSTEM] = 6, [FIELD_EXTRA_LENGTH] = 2,
                                   [FIELD_HEADER_CRC] = 2};
    switch (header->field) {
    case FIELD_MAGIC_1:
    case FIELD_MAGIC_2:
        if (byte != (header->field == FIELD_MAGIC_1 ? 0x1f : 0x8b))
            return GZIP_HEADER_NOT_GZIP;
        break;
    case FIELD_METHOD:
        if (byte != DEFLATE_METHOD)
            return refused(header, "unknown method");
        break;
    case FIELD_FLAGS:
        header->flags = byte;
        if ((byte & FLAGS_RESERVED) != 0) {
            snprintf(header->reason, sizeof header->reason,
                     "reserved flags 0x%02x set in the gzip header -- not supported",
                     byte & FLAGS_RESERVED);
            return GZIP_HEADER_REFUSED;
        }
        break;
    default:
        if (header->field != FIELD_TIME_AND_SYSTEM)
            header->value |= (uint32_t)byte << (8 * header->field_bytes);
        if (++header->field_bytes < sizes[header->field])
            return GZIP_HEADER_MORE;
    }
    header->field_bytes = 0;
    return GZIP_HEADER_MORE;
}

/* The header CRC is the low 16 bits of the CRC-32 of every header byte before it. */
static enum gzip_header_step header_crc_check(struct gzip_header *header)
{
    unsigned computed = header->crc & 0xffff;
    if (header->value == computed)
        return GZIP_HEADER_MORE;
    snprintf(header->reason, sizeof header->reason,
             "header checksum 0x%04x != computed checksum 0x%04x", (unsigned)header->value,
             computed);
    return GZIP_HEADER_REFUSED;
}

/* Takes the bytes of a variable-size field (the extra field, the name, the comment). */
static size_t run_take(struct gzip_header *header, const unsigned char *input, size_t size,
                       int *ended)
{
    size_t taken;
    size = size < RUN_MAXIMUM ? size : RUN_MAXIMUM;
    if (header->field == FIELD_EXTRA) {
        taken = size < header->value ? size : header->value;
        header->value -= (uint32_t)taken;
        *ended = header->value == 0;
    } else {
        const unsigned char *zero = memchr(input, 0, size);
        taken = zero != NULL ? (size_t)(zero - input) + 1 : size;
        *ended = zero != NULL;
    }
    return taken;
}

enum gzip_header_step gzip_header_read(struct gzip_header *header, const unsigned char **input,
                                       size_t *size)
{
    while (header->field != FIELD_DONE && *size > 0) {
        int field = header->field, ended = 1;
        size_t taken = 1;
        enum gzip_header_step step = GZIP_HEADER_MORE;
        if (field == FIELD_EXTRA || field == FIELD_NAME || field == FIELD_COMMENT)
            taken = run_take(header, *input, *size, &ended);
        else if ((step = byte_take(header, **input)) != GZIP_HEADER_MORE)
            return step;
        else
            ended = header->field_bytes == 0;
        if (field != FIELD_HEADER_CRC)
            header->crc = (uint32_t)crc32(header->crc, *input, (uInt)taken);
        *input += taken;
        *size -= taken;
        if (ended && field == FIELD_HEADER_CRC && header_crc_check(header) != GZIP_HEADER_MORE)
            return GZIP_HEADER_REFUSED;
        if (ended) {
            header->field = field_next(header, field);
            if (field != FIELD_EXTRA_LENGTH)
                header->value = 0;
        }
    }
    return header->field == FIELD_DONE ? GZIP_HEADER_DONE : GZIP_HEADER_MORE;
}
