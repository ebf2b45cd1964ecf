/* Streams the regular-file members of a (gzipped) tar or a zip archive with libarchive, never to
   disk. */
#ifndef FUEL_ARCHIVE_READ_H
#define FUEL_ARCHIVE_READ_H

#include <stddef.h>
#include <stdint.h>

struct archive_stream;

enum archive_stream_format {
    ARCHIVE_STREAM_TAR, /* tar, gzipped or not */
    ARCHIVE_STREAM_ZIP, /* zip, members stored or deflated, read from their local headers */
};

/* The size archive_stream_next gives a zip member written with a data descriptor (general
   purpose flag bit 3), whose size only follows its data. */
#define ARCHIVE_STREAM_SIZE_UNKNOWN UINT64_MAX

/* Why a member named NAME is refused whatever it holds ("absolute path", "path with a \"..\"
   component"), or NULL. */
const char *archive_name_refusal(const char *name);

/* Opens PATH as an archive in FORMAT, a gzipped one inflated on a thread of its own when THREADS
   is above 1 (inflate_file_open). EXIT_MISSING_INPUT when it cannot be opened,
   EXIT_CORRUPT_INPUT when it is not a readable archive. */
int archive_stream_open(struct archive_stream **stream, const char *path,
                        enum archive_stream_format format, unsigned threads);

/* Opens the current member of PARENT as a tar nested in it (ILSVRC's training archive: a tar of
   per-class tars), read from PARENT's member bytes as they stream, never to disk, under the same
   rules as archive_stream_open's; its messages name "PARENT'S PATH: MEMBER". PARENT stays open
   and must not be advanced until STREAM is closed; a failure reading PARENT is PARENT's error.
   Its end (archive_stream_next's NULL) reads the member to its end, whose size is checked. */
int archive_stream_open_member(struct archive_stream **stream, struct archive_stream *parent);

/* Advances to the next regular-file member: *NAME (valid until the next call) and *SIZE (or
   ARCHIVE_STREAM_SIZE_UNKNOWN), or *NAME = NULL at the end, once the rest of the file has been
   read and checked: the gzip trailers of a tar, the end of central directory record of a zip
   and its member count (EXIT_CORRUPT_INPUT otherwise, as for a corrupt member). A zip member the
   caller did not read to its end is read to it first, so that every member's CRC-32 is checked.
   Directories are passed over. A member that names an absolute path, a path with a ".."
   component, a symbolic or hard link, a device, or that is encrypted is refused:
   EXIT_CORRUPT_INPUT naming the archive and the member. */
int archive_stream_next(struct archive_stream *stream, const char **name, uint64_t *size);

/* Reads up to SIZE bytes of the current member; *READ is 0 at its end. EXIT_CORRUPT_INPUT on a
   truncated or corrupt archive, or a zip member whose CRC-32 or size does not match. */
int archive_stream_read(struct archive_stream *stream, void *buffer, size_t size, size_t *read);

/* Reads exactly SIZE bytes of the current member, EXIT_CORRUPT_INPUT if it ends first. */
int archive_stream_read_exactly(struct archive_stream *stream, void *buffer, size_t size);

/* Reads the rest of the current member into *BYTES, a malloc'd block of *CAPACITY bytes that is
   grown as needed (NULL and 0 at first; the caller frees it), and sets *SIZE. EXIT_CORRUPT_INPUT
   naming the member when it holds more than LIMIT bytes or cannot be read; EXIT_OTHER when
   memory runs out. */
int archive_stream_read_member(struct archive_stream *stream, unsigned char **bytes,
                               size_t *capacity, size_t *size, size_t limit);

void archive_stream_close(struct archive_stream *stream);

#endif
