/* Streams the regular-file members of a (gzipped) tar archive with libarchive, never to disk.
   The gzip layer is ours (inflate_file, on ISA-L): libarchive gets the inflated bytes through its
   read callback and only parses tar. */
#include "tar_stream.h"

#include "common/base/error.h"
#include "inflate_file.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Deflate turns one compressed byte into at most 1032 bytes (a 258-byte match in under 2 bits). */
enum { DEFLATE_MAXIMUM_RATIO = 1032 };

struct tar_stream {
    struct archive *archive;
    struct inflate_file *file;
    char *path;
    uint64_t file_size; /* 0 when not a regular file (its size unknown) */
    const char *member; /* the current member's name, owned by libarchive */
};

static const char *archive_reason(struct archive *archive)
{
    const char *reason = archive_error_string(archive);
    return reason != NULL ? reason : "unreadable archive";
}

/* libarchive's read callback: the next block of the (inflated) archive, 0 bytes at its end. */
static la_ssize_t read_block(struct archive *archive, void *data, const void **block)
{
    struct tar_stream *stream = data;
    size_t size;
    int status = inflate_file_block(stream->file, block, &size);
    if (status == EXIT_OK)
        return (la_ssize_t)size;
    archive_set_error(archive, status == EXIT_OTHER ? EIO : EINVAL, "%s",
                      inflate_file_reason(stream->file));
    return -1;
}

static int open_archive(struct tar_stream *stream)
{
    struct archive *archive = stream->archive;
    archive_read_support_filter_none(archive);
    archive_read_support_format_tar(archive);
    archive_read_set_read_callback(archive, read_block);
    archive_read_set_callback_data(archive, stream);
    if (archive_read_open1(archive) != ARCHIVE_OK)
        return error_set(EXIT_CORRUPT_INPUT, "cannot open archive: %s: %s", stream->path,
                         archive_reason(archive));
    return EXIT_OK;
}

int tar_stream_open(struct tar_stream **stream, const char *path, unsigned threads)
{
    *stream = calloc(1, sizeof **stream);
    if (*stream == NULL || ((*stream)->path = strdup(path)) == NULL ||
        ((*stream)->archive = archive_read_new()) == NULL) {
        tar_stream_close(*stream);
        *stream = NULL;
        return error_set(EXIT_OTHER, "cannot open archive: %s: out of memory", path);
    }
    int status = inflate_file_open(&(*stream)->file, path, "cannot open archive", threads);
    if (status == EXIT_OK) {
        (*stream)->file_size = inflate_file_size((*stream)->file);
        status = open_archive(*stream);
    }
    if (status != EXIT_OK) {
        tar_stream_close(*stream);
        *stream = NULL;
    }
    return status;
}

/* A member's declared size, which readers may allocate by, must fit in what the archive can
   hold: its size stored plain, DEFLATE_MAXIMUM_RATIO times its size gzipped. */
static bool size_can_follow(const struct tar_stream *stream, uint64_t size)
{
    if (stream->file_size == 0)
        return true;
    bool compressed = inflate_file_compressed(stream->file);
    return size <= stream->file_size * (compressed ? DEFLATE_MAXIMUM_RATIO : 1);
}

static bool has_parent_component(const char *name)
{
    const char *component = name;
    while (*component != '\0') {
        size_t length = strcspn(component, "/");
        if (length == 2 && component[0] == '.' && component[1] == '.')
            return true;
        component += length;
        component += strspn(component, "/");
    }
    return false;
}

/* The reason a member must not be streamed, or NULL when it is a safe regular file or directory. */
static const char *refusal_reason(struct archive_entry *entry, const char *name)
{
    if (name[0] == '/')
        return "absolute path";
    if (has_parent_component(name))
        return "path with a \"..\" component";
    if (archive_entry_hardlink(entry) != NULL)
        return "hard link";
    switch (archive_entry_filetype(entry)) {
    case AE_IFREG:
    case AE_IFDIR:
        return NULL;
    case AE_IFLNK:
        return "symbolic link";
    case AE_IFCHR:
    case AE_IFBLK:
        return "device";
    default:
        return "not a regular file";
    }
}

/* Reads on past the tar end-of-archive blocks to the end of the file, so that the gzip trailers
   and what follows the last member are checked, as gzip -t would. */
static int check_end(struct tar_stream *stream)
{
    const void *block;
    size_t size;
    do {
        int status = inflate_file_block(stream->file, &block, &size);
        if (status != EXIT_OK)
            return error_set(status, "cannot read archive: %s: after the last member: %s",
                             stream->path, inflate_file_reason(stream->file));
    } while (size > 0);
    return EXIT_OK;
}

int tar_stream_next(struct tar_stream *stream, const char **name, uint64_t *size)
{
    for (;;) {
        struct archive_entry *entry;
        int status = archive_read_next_header(stream->archive, &entry);
        if (status == ARCHIVE_EOF) {
            *name = NULL;
            *size = 0;
            return check_end(stream);
        }
        if (status != ARCHIVE_OK && status != ARCHIVE_WARN)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s", stream->path,
                             archive_reason(stream->archive));
        const char *member = archive_entry_pathname(entry);
        if (member == NULL)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: member without a name",
                             stream->path);
        const char *reason = refusal_reason(entry, member);
        if (reason != NULL)
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: %s",
                             stream->path, member, reason);
        if (archive_entry_filetype(entry) == AE_IFDIR)
            continue;
        la_int64_t member_size = archive_entry_size(entry);
        uint64_t declared = member_size > 0 ? (uint64_t)member_size : 0;
        if (!size_can_follow(stream, declared))
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: declares %"
                             PRIu64 " bytes, more than an archive of %" PRIu64 " bytes can hold",
                             stream->path, member, declared, stream->file_size);
        stream->member = member;
        *name = member;
        *size = declared;
        return EXIT_OK;
    }
}

int tar_stream_read(struct tar_stream *stream, void *buffer, size_t size, size_t *read)
{
    la_ssize_t count = archive_read_data(stream->archive, buffer, size);
    if (count < 0) {
        *read = 0;
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: %s", stream->path,
                         stream->member != NULL ? stream->member : "", archive_reason(stream->archive));
    }
    *read = (size_t)count;
    return EXIT_OK;
}

int tar_stream_read_exactly(struct tar_stream *stream, void *buffer, size_t size)
{
    unsigned char *cursor = buffer;
    while (size > 0) {
        size_t read;
        int status = tar_stream_read(stream, cursor, size, &read);
        if (status != EXIT_OK)
            return status;
        if (read == 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: member ends early",
                             stream->path, stream->member);
        cursor += read;
        size -= read;
    }
    return EXIT_OK;
}

void tar_stream_close(struct tar_stream *stream)
{
    if (stream == NULL)
        return;
    if (stream->archive != NULL)
        archive_read_free(stream->archive);
    inflate_file_close(stream->file);
    free(stream->path);
    free(stream);
}
