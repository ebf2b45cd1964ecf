/* One streaming inflater for every reader (gzip files, tar.gz, MAT v5 zlib elements): ISA-L, or zlib
   where the build found no libisal (make INFLATE=zlib), behind the same feed/pull interface. */
#ifndef FUEL_INFLATE_H
#define FUEL_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

/* INFLATE_GZIP reads a gzip file as gzip -dc does (checked against `gzip -t`, gzip 1.12):
   - concatenated members are all inflated, one after the other, as one stream;
   - each member's CRC-32 and ISIZE are checked: "invalid compressed data--crc error" or
     "invalid compressed data--length error";
   - zero bytes after the last member are ignored (gzip exits 0);
   - anything else after a member (not 1f 8b, the start of another) is "trailing garbage after the
     gzip data": gzip prints "decompression OK, trailing garbage ignored" and exits with its warning
     status 2, both in -dc and -t; fuel has no warning status and refuses the file (corrupt);
   - a stream or member cut short, a lone 1f or 1f 8b after a member included, is
     "unexpected end of file";
   - a header with reserved flag bits set is "reserved flags 0xNN set in the gzip header -- not
     supported" (gzip: "has flags 0xNN -- not supported"), a wrong header CRC is gzip's "header
     checksum 0xNNNN != computed checksum 0xNNNN"; a header is read the same whatever pieces it
     is fed in.
   INFLATE_ZLIB reads one zlib stream (RFC 1950, Adler-32 checked); bytes fed after its end are
   ignored (ISA-L 2.30 may use up to 8 of them: inflater_unused is then an underestimate). */
enum inflate_format { INFLATE_GZIP, INFLATE_ZLIB };

enum inflate_status {
    INFLATE_OUTPUT_FULL, /* the output buffer is full: pull again */
    INFLATE_NEED_INPUT,  /* every byte fed has been used: feed more, or end the input */
    INFLATE_END,         /* the stream ended, checksums checked; later pulls produce nothing */
    INFLATE_CORRUPT,     /* corrupt, truncated, wrong checksum: inflater_reason says why */
};

struct inflater;

/* EXIT_OK, or EXIT_OTHER (error_set "cannot inflate: out of memory") when allocation fails. */
int inflater_create(struct inflater **inflater, enum inflate_format format);

/* Starts a new stream of the same format, forgetting any input not yet used. */
void inflater_reset(struct inflater *inflater);

/* Hands over SIZE bytes of input; they must stay valid until a pull says INFLATE_NEED_INPUT (or
   the stream ends). Feeding before the previous input is used replaces what is left of it. */
void inflater_feed(struct inflater *inflater, const void *input, size_t size);

/* Says no input will follow what was fed: a stream not yet ended is then truncated. */
void inflater_end_input(struct inflater *inflater);

/* Inflates into OUTPUT, at most SIZE bytes, setting *PRODUCED; *PRODUCED may be non-zero
   whatever the status returned. */
enum inflate_status inflater_pull(struct inflater *inflater, void *output, size_t size,
                                  size_t *produced);

/* Why the last pull returned INFLATE_CORRUPT, as gzip words it, e.g. "unexpected end of file". */
const char *inflater_reason(const struct inflater *inflater);

/* Bytes of the last input fed that the inflater has not used; exact in INFLATE_GZIP. */
size_t inflater_unused(const struct inflater *inflater);

void inflater_free(struct inflater *inflater);

/* The library doing the work, e.g. "ISA-L 2.30.0" or "zlib 1.3". */
const char *inflate_library(void);

#endif
