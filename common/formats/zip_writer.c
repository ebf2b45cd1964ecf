/* Archives through libarchive's zip writer: deflated members, their sizes and CRC-32 in data
   descriptors after the data, the zip64 end records once the entries outgrow 16 bits. The entries'
   DOS times are local times, as every zip tool writes them: the same MTIME in another time zone
   gives other bytes (the UT extra field keeps the UTC time). */
#include "zip_writer.h"

#include "archive_header.h"
#include "common/base/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

struct zip_writer {
    struct archive *archive;
    char path[4096];
    int64_t mtime;
};

int zip_writer_open(struct zip_writer **writer, const char *path, int64_t mtime)
{
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write archive: %s: out of memory", path);
    snprintf((*writer)->path, sizeof (*writer)->path, "%s", path);
    (*writer)->mtime = mtime;
    struct archive *archive = (*writer)->archive = archive_write_new();
    if (archive == NULL || archive_write_set_format_zip(archive) != ARCHIVE_OK ||
        archive_write_set_options(archive, "zip:compression=deflate") != ARCHIVE_OK ||
        archive_write_open_filename(archive, path) != ARCHIVE_OK) {
        int result = error_set(EXIT_WRITE, "cannot write archive: %s: %s", path,
                               archive != NULL && archive_error_string(archive) != NULL
                                   ? archive_error_string(archive)
                                   : "out of memory");
        if (archive != NULL)
            archive_write_free(archive);
        free(*writer);
        *writer = NULL;
        return result;
    }
    return EXIT_OK;
}

static int add_header(struct zip_writer *writer, const char *name, mode_t type, mode_t mode,
                      int64_t size)
{
    return archive_header_write(writer->archive, writer->path, name, type, mode, size,
                                writer->mtime);
}

int zip_writer_add_directory(struct zip_writer *writer, const char *name)
{
    return add_header(writer, name, AE_IFDIR, 0755, 0);
}

int zip_writer_add_bytes(struct zip_writer *writer, const char *name, const void *data,
                         size_t size)
{
    int result = add_header(writer, name, AE_IFREG, 0644, (int64_t)size);
    if (result == EXIT_OK && size > 0 &&
        archive_write_data(writer->archive, data, size) != (la_ssize_t)size)
        result = error_set(EXIT_WRITE, "cannot write archive: %s: %s: %s", writer->path, name,
                           archive_error_string(writer->archive));
    return result;
}

int zip_writer_close(struct zip_writer *writer)
{
    int result = archive_write_close(writer->archive) == ARCHIVE_OK
                     ? EXIT_OK
                     : error_set(EXIT_WRITE, "cannot write archive: %s: %s", writer->path,
                                 archive_error_string(writer->archive));
    archive_write_free(writer->archive);
    free(writer);
    return result;
}

void zip_writer_abandon(struct zip_writer *writer)
{
    archive_write_free(writer->archive);
    free(writer);
}
