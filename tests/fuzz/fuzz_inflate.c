/* libFuzzer target: the inflater (gzip members and zlib streams), fed in pieces of every size; the
   verdict (and the bytes of a good stream) must not depend on the pieces, and a zlib stream or
   one-member gzip file zlib inflates must inflate to the same bytes (ISA-L may accept a few
   streams zlib refuses, e.g. a window size field over 32 KiB, and refuse corrupt ones earlier). */
#include "common/formats/gzip/inflate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { OUTPUT_LIMIT = 1 << 22 };

static unsigned char first_output[OUTPUT_LIMIT], output[OUTPUT_LIMIT];

/* Inflates INPUT fed FEED bytes and pulled PULL bytes at a time into BUFFER, at most
   OUTPUT_LIMIT bytes; returns the last status. */
static enum inflate_status run(enum inflate_format format, const unsigned char *input, size_t size,
                               size_t feed, size_t pull, unsigned char *buffer, size_t *total)
{
    struct inflater *inflater;
    if (inflater_create(&inflater, format) != 0)
        abort();
    size_t fed = 0;
    enum inflate_status status = INFLATE_NEED_INPUT;
    *total = 0;
    while (*total < OUTPUT_LIMIT) {
        if (status == INFLATE_NEED_INPUT) {
            size_t part = size - fed < feed ? size - fed : feed;
            inflater_feed(inflater, input + fed, part);
            fed += part;
            if (fed == size)
                inflater_end_input(inflater);
        }
        size_t room = OUTPUT_LIMIT - *total < pull ? OUTPUT_LIMIT - *total : pull, count;
        status = inflater_pull(inflater, buffer + *total, room, &count);
        *total += count;
        if (status == INFLATE_END || status == INFLATE_CORRUPT)
            break;
    }
    inflater_free(inflater);
    return status;
}

/* zlib's own verdict on a zlib stream or on a gzip file of one member and nothing after it:
   Z_OK with its output, or an error. */
static int zlib_inflate(enum inflate_format format, const unsigned char *input, size_t size,
                        size_t *total)
{
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, format == INFLATE_GZIP ? 15 + 16 : 15) != Z_OK)
        abort();
    stream.next_in = (unsigned char *)input;
    stream.avail_in = (uInt)size;
    stream.next_out = output;
    stream.avail_out = OUTPUT_LIMIT;
    int status = inflate(&stream, Z_FINISH);
    *total = stream.total_out;
    inflateEnd(&stream);
    if (format == INFLATE_GZIP && stream.avail_in > 0)
        return Z_DATA_ERROR; /* more members, zeros or garbage: gzip's rules, not zlib's */
    return status == Z_STREAM_END ? Z_OK : status;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    /* The first byte: the format (bit 0) and the pieces of the second run (the rest). */
    enum inflate_format format = data[0] & 1 ? INFLATE_ZLIB : INFLATE_GZIP;
    size_t feed = 1 + (data[0] >> 1) % 7, pull = 1 + (data[0] >> 4) * 97;
    size_t first_total, total;
    enum inflate_status first = run(format, data + 1, size - 1, SIZE_MAX, SIZE_MAX, first_output,
                                    &first_total);
    enum inflate_status second = run(format, data + 1, size - 1, feed, pull, output, &total);
    /* What a corrupt stream yields before its error shows depends on the pieces (ISA-L may
       write a few bytes it later finds wrong): only the verdict must not. */
    if (first_total < OUTPUT_LIMIT && total < OUTPUT_LIMIT &&
        (first != second || (first == INFLATE_END && (first_total != total ||
                                                      memcmp(first_output, output, total) != 0))))
        abort();
    if (first_total < OUTPUT_LIMIT) {
        int verdict = zlib_inflate(format, data + 1, size - 1, &total);
        if (verdict == Z_OK && (first != INFLATE_END || total != first_total ||
                                memcmp(first_output, output, total) != 0))
            abort();
    }
    return 0;
}
