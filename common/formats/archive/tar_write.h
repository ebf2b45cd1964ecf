/* Writes a gzip-compressed (or plain) ustar archive with libarchive, members at one fixed time, reproducibly. */
#ifndef FUEL_TAR_WRITE_H
#define FUEL_TAR_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct tar_writer;

/* Creates PATH; every member gets MTIME, owner 0:0 and mode 0644 (directories 0755). The gzip
   header carries no time and no name, so the bytes depend on the members (and COMMENT, the
   header's comment when not NULL) only. */
int tar_writer_open(struct tar_writer **writer, const char *path, int64_t mtime,
                    const char *comment);

/* As tar_writer_open, the archive not compressed (ILSVRC's .tar archives). */
int tar_writer_open_plain(struct tar_writer **writer, const char *path, int64_t mtime);

int tar_writer_add_directory(struct tar_writer *writer, const char *name);

/* A member NAME holding the SIZE bytes at DATA. */
int tar_writer_add_bytes(struct tar_writer *writer, const char *name, const void *data, size_t size);

/* A member NAME holding the file at PATH, streamed in blocks. */
int tar_writer_add_file(struct tar_writer *writer, const char *name, const char *path);

/* Finishes and closes the archive; the writer is freed whatever the result. */
int tar_writer_close(struct tar_writer *writer);

/* Closes the archive after a failure elsewhere, reporting nothing: the failure's message stays
   the one reported. The file is left for the caller to remove. */
void tar_writer_abandon(struct tar_writer *writer);

/* After writing that ended with RESULT: closes WRITER when RESULT is EXIT_OK (its result), else
   abandons it (NULL: nothing to do) and returns RESULT. */
int tar_writer_finish(struct tar_writer *writer, int result);

#endif
