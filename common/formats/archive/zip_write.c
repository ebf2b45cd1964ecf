/* Archives through libarchive's zip writer: deflated members, their sizes and CRC-32 in data
   descriptors after the data, the zip64 end records once the entries outgrow 16 bits. The entries'
   DOS times are local times, as every zip tool writes them: the same MTIME in another time zone
   gives other bytes (the UT extra field keeps the UTC time). libarchive writes no archive comment,
   so one is appended to the end record it leaves. */
#include "zip_write.h"

#include "archive_header.h"
#include "common/base/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct zip_writer {
    struct archive *archive;
    char path[4096];
    int64_t mtime;
    const char *comment;
};

int zip_writer_open(struct zip_writer **writer, const char *path, int64_t mtime,
                    const char *comment)
{
    if (comment != NULL && strlen(comment) > 0xffff)
        return error_set(EXIT_OTHER, "cannot write archive: %s: comment longer than 65535 bytes",
                         path);
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write archive: %s: out of memory", path);
    snprintf((*writer)->path, sizeof (*writer)->path, "%s", path);
    (*writer)->mtime = mtime;
    (*writer)->comment = comment;
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

/* APPNOTE 4.3.16: the end of central directory record closes the file, its last two bytes the
   length of the (so far empty) comment that follows them. */
static int append_comment(const char *path, const char *comment)
{
    FILE *file = fopen(path, "r+b");
    unsigned char record[22];
    size_t length = strlen(comment);
    bool written = file != NULL && fseek(file, -22, SEEK_END) == 0 &&
                   fread(record, 1, sizeof record, file) == sizeof record &&
                   memcmp(record, "PK\5\6", 4) == 0 && record[20] == 0 && record[21] == 0 &&
                   fseek(file, -2, SEEK_END) == 0 &&
                   fputc((int)(length & 0xff), file) != EOF && fputc((int)(length >> 8), file) != EOF &&
                   fwrite(comment, 1, length, file) == length;
    int saved = errno;
    if (file != NULL && fclose(file) != 0 && written) {
        saved = errno;
        written = false;
    }
    if (!written)
        return error_set(EXIT_WRITE, "cannot write archive: %s: the comment: %s", path,
                         saved != 0 ? strerror(saved) : "no end of central directory record");
    return EXIT_OK;
}

int zip_writer_close(struct zip_writer *writer)
{
    int result = archive_write_close(writer->archive) == ARCHIVE_OK
                     ? EXIT_OK
                     : error_set(EXIT_WRITE, "cannot write archive: %s: %s", writer->path,
                                 archive_error_string(writer->archive));
    if (result == EXIT_OK && writer->comment != NULL)
        result = append_comment(writer->path, writer->comment);
    archive_write_free(writer->archive);
    free(writer);
    return result;
}

void zip_writer_abandon(struct zip_writer *writer)
{
    archive_write_free(writer->archive);
    free(writer);
}
