/* Writes one gzip member through zlib's deflate at level 6, with no name and no time in its
   header and, when asked, a comment (RFC 1952's FCOMMENT, which every gzip reader skips). */
#ifndef FUEL_GZIP_WRITE_H
#define FUEL_GZIP_WRITE_H

#include <stddef.h>

struct gzip_writer;

/* Creates PATH; COMMENT NULL leaves the header without one. */
int gzip_writer_open(struct gzip_writer **writer, const char *path, const char *comment);

/* Compresses SIZE bytes of DATA; EXIT_WRITE when the file cannot be written. */
int gzip_writer_write(struct gzip_writer *writer, const void *data, size_t size);

/* Why the writer failed: the system's words (strerror) when a write or close failed. */
const char *gzip_writer_reason(const struct gzip_writer *writer);

/* Finishes the member and closes the file; the writer is freed whatever the result. */
int gzip_writer_close(struct gzip_writer *writer);

#endif
