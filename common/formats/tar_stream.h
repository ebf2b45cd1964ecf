/* Streams the regular-file members of a (gzipped) tar archive with libarchive, never to disk. */
#ifndef FUEL_TAR_STREAM_H
#define FUEL_TAR_STREAM_H

#include <stddef.h>
#include <stdint.h>

struct tar_stream;

/* Opens PATH, inflated on a thread of its own when THREADS is above 1 (inflate_file_open).
   EXIT_MISSING_INPUT when it cannot be opened, EXIT_CORRUPT_INPUT when it is not a readable
   archive. */
int tar_stream_open(struct tar_stream **stream, const char *path, unsigned threads);

/* Advances to the next regular-file member: *NAME (valid until the next call) and *SIZE, or
   *NAME = NULL at the end, once the rest of the file has been read and its gzip trailers checked
   (EXIT_CORRUPT_INPUT otherwise, as for a corrupt member). Directories are passed over. A member that names an absolute path, a
   path with a ".." component, a symbolic or hard link, or a device is refused: EXIT_CORRUPT_INPUT
   naming the archive and the member. */
int tar_stream_next(struct tar_stream *stream, const char **name, uint64_t *size);

/* Reads up to SIZE bytes of the current member; *READ is 0 at its end. EXIT_CORRUPT_INPUT on a
   truncated or corrupt archive. */
int tar_stream_read(struct tar_stream *stream, void *buffer, size_t size, size_t *read);

/* Reads exactly SIZE bytes of the current member, EXIT_CORRUPT_INPUT if it ends first. */
int tar_stream_read_exactly(struct tar_stream *stream, void *buffer, size_t size);

void tar_stream_close(struct tar_stream *stream);

#endif
