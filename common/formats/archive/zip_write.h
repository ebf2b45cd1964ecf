/* Writes a zip archive with libarchive, members deflated at one fixed time, reproducibly. */
#ifndef FUEL_ZIP_WRITE_H
#define FUEL_ZIP_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct zip_writer;

/* Creates PATH; every member gets MTIME, owner 0:0 and mode 0644 (directories 0755). COMMENT,
   when not NULL, becomes the archive's comment (at most 65,535 bytes). */
int zip_writer_open(struct zip_writer **writer, const char *path, int64_t mtime,
                    const char *comment);

/* A directory entry NAME (written with a trailing '/', as zip tools do). */
int zip_writer_add_directory(struct zip_writer *writer, const char *name);

/* A member NAME holding the SIZE bytes at DATA, deflated. */
int zip_writer_add_bytes(struct zip_writer *writer, const char *name, const void *data,
                         size_t size);

/* Writes the central directory and closes the archive; the writer is freed whatever the result. */
int zip_writer_close(struct zip_writer *writer);

/* Closes the archive after a failure elsewhere, reporting nothing. The file is left for the
   caller to remove. */
void zip_writer_abandon(struct zip_writer *writer);

#endif
