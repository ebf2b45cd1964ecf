/* Archives through libarchive's ustar writer into a gzip member of our own or a plain file
   (libarchive's gzip filter stamps the current time into the header, which would break
   byte-identical reruns). */
#include "tar_write.h"

#include "archive_header.h"
#include "common/base/error.h"
#include "common/formats/gzip/gzip_write.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct tar_writer {
    struct archive *archive;
    struct gzip_writer *gzip;
    FILE *plain; /* the archive not compressed: written here, gzip NULL */
    char path[4096];
    int64_t mtime;
};

static int open_plain(FILE **file, const char *path)
{
    *file = fopen(path, "wb");
    return *file != NULL ? EXIT_OK
                         : error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
}

/* Closes the output, gzip member or plain file; failures say "cannot write: PATH: REASON". */
static int close_output(struct tar_writer *writer)
{
    if (writer->plain == NULL)
        return gzip_writer_close(writer->gzip);
    return fclose(writer->plain) == 0
               ? EXIT_OK
               : error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path, strerror(errno));
}

static la_ssize_t write_block(struct archive *archive, void *context, const void *data,
                              size_t size)
{
    struct tar_writer *writer = context;
    if (size > 0 && writer->plain != NULL) {
        if (fwrite(data, 1, size, writer->plain) != size) {
            archive_set_error(archive, EIO, "%s", strerror(errno));
            return -1;
        }
    } else if (size > 0 && gzip_writer_write(writer->gzip, data, size) != EXIT_OK) {
        archive_set_error(archive, EIO, "%s", gzip_writer_reason(writer->gzip));
        return -1;
    }
    return (la_ssize_t)size;
}

/* The archive into a gzip member with COMMENT, or into a plain file when PLAIN. */
static int open_writer(struct tar_writer **writer, const char *path, int64_t mtime,
                       const char *comment, bool plain)
{
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write archive: %s: out of memory", path);
    snprintf((*writer)->path, sizeof (*writer)->path, "%s", path);
    (*writer)->mtime = mtime;
    int opened = plain ? open_plain(&(*writer)->plain, path)
                       : gzip_writer_open(&(*writer)->gzip, path, comment);
    (*writer)->archive = archive_write_new();
    if (opened != EXIT_OK || (*writer)->archive == NULL ||
        archive_write_set_format_ustar((*writer)->archive) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block((*writer)->archive, 1) != ARCHIVE_OK ||
        archive_write_open((*writer)->archive, *writer, NULL, write_block, NULL) != ARCHIVE_OK) {
        if ((*writer)->archive != NULL)
            archive_write_free((*writer)->archive);
        if (opened == EXIT_OK)
            close_output(*writer);
        free(*writer);
        *writer = NULL;
        return opened != EXIT_OK ? EXIT_WRITE
                                 : error_set(EXIT_WRITE, "cannot write archive: %s", path);
    }
    return EXIT_OK;
}

int tar_writer_open(struct tar_writer **writer, const char *path, int64_t mtime,
                    const char *comment)
{
    return open_writer(writer, path, mtime, comment, false);
}

int tar_writer_open_plain(struct tar_writer **writer, const char *path, int64_t mtime)
{
    return open_writer(writer, path, mtime, NULL, true);
}

static int add_header(struct tar_writer *writer, const char *name, mode_t type, mode_t mode,
                      int64_t size)
{
    return archive_header_write(writer->archive, writer->path, name, type, mode, size,
                                writer->mtime);
}

int tar_writer_add_directory(struct tar_writer *writer, const char *name)
{
    return add_header(writer, name, AE_IFDIR, 0755, 0);
}

static int write_data(struct tar_writer *writer, const char *name, const void *data, size_t size)
{
    if (size > 0 && archive_write_data(writer->archive, data, size) != (la_ssize_t)size)
        return error_set(EXIT_WRITE, "cannot write archive: %s: %s: %s", writer->path, name,
                         archive_error_string(writer->archive));
    return EXIT_OK;
}

int tar_writer_add_bytes(struct tar_writer *writer, const char *name, const void *data, size_t size)
{
    int result = add_header(writer, name, AE_IFREG, 0644, (int64_t)size);
    return result == EXIT_OK ? write_data(writer, name, data, size) : result;
}

int tar_writer_add_file(struct tar_writer *writer, const char *name, const char *path)
{
    FILE *file = fopen(path, "rb");
    struct stat status;
    if (file == NULL || fstat(fileno(file), &status) != 0) {
        if (file != NULL)
            fclose(file);
        return error_set(EXIT_WRITE, "cannot read back: %s", path);
    }
    int result = add_header(writer, name, AE_IFREG, 0644, (int64_t)status.st_size);
    char block[65536];
    size_t count;
    while (result == EXIT_OK && (count = fread(block, 1, sizeof block, file)) > 0)
        result = write_data(writer, name, block, count);
    if (result == EXIT_OK && ferror(file))
        result = error_set(EXIT_WRITE, "cannot read back: %s", path);
    fclose(file);
    return result;
}

int tar_writer_close(struct tar_writer *writer)
{
    int result = archive_write_close(writer->archive) == ARCHIVE_OK
                     ? EXIT_OK
                     : error_set(EXIT_WRITE, "cannot write archive: %s: %s", writer->path,
                                 archive_error_string(writer->archive));
    archive_write_free(writer->archive);
    /* gzip_writer_close says why: "cannot write: PATH: REASON". */
    if (close_output(writer) != EXIT_OK && result == EXIT_OK)
        result = error_code();
    free(writer);
    return result;
}

void tar_writer_abandon(struct tar_writer *writer)
{
    archive_write_free(writer->archive);
    /* The failure that made the caller abandon the archive keeps its message. */
    char message[1024];
    int code = error_code();
    snprintf(message, sizeof message, "%s", error_message());
    close_output(writer);
    if (code != 0)
        error_set(code, "%s", message);
    free(writer);
}

int tar_writer_finish(struct tar_writer *writer, int result)
{
    if (result == EXIT_OK)
        return tar_writer_close(writer);
    if (writer != NULL)
        tar_writer_abandon(writer);
    return result;
}
