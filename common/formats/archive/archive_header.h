/* One member header of a tar or zip archive being written with libarchive: owner 0, a fixed time. */
#ifndef FUEL_ARCHIVE_HEADER_H
#define FUEL_ARCHIVE_HEADER_H

#include <archive.h>
#include <stdint.h>
#include <sys/types.h>

/* Writes the header of member NAME (TYPE AE_IFREG or AE_IFDIR, MODE, SIZE bytes, MTIME) into
   ARCHIVE, the archive written at PATH (named in errors). EXIT_WRITE naming PATH and NAME on
   failure. */
int archive_header_write(struct archive *archive, const char *path, const char *name, mode_t type,
                         mode_t mode, int64_t size, int64_t mtime);

#endif
