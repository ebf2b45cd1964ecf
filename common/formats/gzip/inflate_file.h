/* Reads a file through the inflater when it starts with gzip's magic bytes, as it is otherwise. */
#ifndef FUEL_INFLATE_FILE_H
#define FUEL_INFLATE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct inflate_file;

/* Opens PATH. With THREADS above 1 (the caller's worker threads), a gzipped file gets a thread of
   its own that inflates a few 256 KiB blocks ahead of the reader, so that inflating and the
   caller's work overlap; with 1 it is inflated in the caller's thread (fuel-convert --threads 1).
   On failure sets the error "WHAT: PATH: why" and returns EXIT_MISSING_INPUT (absent, not
   readable, a directory, a symbolic link loop) or EXIT_OTHER. */
int inflate_file_open(struct inflate_file **file, const char *path, const char *what,
                      unsigned threads);

/* Whether the file is gzipped; its size on disk, 0 when it is not a regular file. */
bool inflate_file_compressed(const struct inflate_file *file);
uint64_t inflate_file_size(const struct inflate_file *file);

/* Reads up to SIZE bytes of the (inflated) content, as many as there are until its end; *READ is
   0 at the end. EXIT_CORRUPT_INPUT on corrupt or truncated gzip data, EXIT_OTHER on a read error;
   neither sets the error message: inflate_file_reason says why. */
int inflate_file_read(struct inflate_file *file, void *buffer, size_t size, size_t *read);

/* Like inflate_file_read, but points *DATA at the next bytes in the reader's own buffer (valid
   until the next call): *SIZE of them, 0 at the end. */
int inflate_file_block(struct inflate_file *file, const void **data, size_t *size);

/* Why the last read failed, e.g. "unexpected end of file". */
const char *inflate_file_reason(const struct inflate_file *file);

void inflate_file_close(struct inflate_file *file);

#endif
