/* Streams the regular-file members of a (gzipped) tar or a zip archive with libarchive, never to
   disk. The gzip layer is ours (inflate_file, on ISA-L): libarchive gets the inflated bytes
   through its read callback and only parses tar or zip. Zip is read from its local headers
   (libarchive's streamable reader) so that nothing seeks; the central directory at the end is
   only checked against what was streamed (zip_end). */
#include "archive_read.h"

#include "common/base/error.h"
#include "common/formats/gzip/inflate_file.h"
#include "zip_end.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Deflate turns one compressed byte into at most 1032 bytes (a 258-byte match in under 2 bits). */
enum { DEFLATE_MAXIMUM_RATIO = 1032 };
/* What archive_stream_read_member allocates first for a member of unknown size. */
enum { FIRST_MEMBER_CAPACITY = 64 * 1024 };

/* What a nested archive reads of its parent's member at a time. */
enum { NESTED_BLOCK = 256 * 1024 };

struct archive_stream {
    struct archive *archive;
    struct inflate_file *file;
    /* A tar nested in a member of PARENT (archive_stream_open_member): read from it instead of
       FILE, through BLOCK; PARENT_STATUS keeps the parent's failure, whose message is set. */
    struct archive_stream *parent;
    unsigned char *block;
    int parent_status;
    char *path;
    enum archive_stream_format format;
    uint64_t file_size;   /* 0 when not a regular file (its size unknown) */
    const char *member;   /* the current member's name, owned by libarchive */
    uint64_t member_size; /* as archive_stream_next gave it */
    uint64_t member_read; /* the bytes of it read so far */
    bool unfinished;      /* a zip member whose end was not read yet */
    uint64_t members;     /* the headers read, directories included */
    uint64_t length;      /* the bytes of the (inflated) archive read so far */
    unsigned char *tail;  /* zip: the last ZIP_END_TAIL of them, TAIL_SIZE so far */
    size_t tail_size;
};

static const char *archive_reason(struct archive *archive)
{
    const char *reason = archive_error_string(archive);
    return reason != NULL ? reason : "unreadable archive";
}

/* Keeps the last ZIP_END_TAIL bytes read, where a zip's end records are. */
static void keep_tail(struct archive_stream *stream, const unsigned char *block, size_t size)
{
    if (size >= ZIP_END_TAIL) {
        memcpy(stream->tail, block + size - ZIP_END_TAIL, ZIP_END_TAIL);
        stream->tail_size = ZIP_END_TAIL;
        return;
    }
    size_t kept = stream->tail_size < ZIP_END_TAIL - size ? stream->tail_size : ZIP_END_TAIL - size;
    memmove(stream->tail, stream->tail + stream->tail_size - kept, kept);
    memcpy(stream->tail + kept, block, size);
    stream->tail_size = kept + size;
}

/* The next block of the (inflated) archive, 0 bytes at its end, counted and its tail kept. */
static int next_block(struct archive_stream *stream, const void **block, size_t *size)
{
    int status;
    if (stream->parent != NULL) {
        status = archive_stream_read(stream->parent, stream->block, NESTED_BLOCK, size);
        *block = stream->block;
        stream->parent_status = status;
    } else {
        status = inflate_file_block(stream->file, block, size);
    }
    if (status != EXIT_OK)
        return status;
    stream->length += *size;
    if (stream->tail != NULL)
        keep_tail(stream, *block, *size);
    return EXIT_OK;
}

/* libarchive's read callback. */
static la_ssize_t read_block(struct archive *archive, void *data, const void **block)
{
    struct archive_stream *stream = data;
    size_t size;
    int status = next_block(stream, block, &size);
    if (status == EXIT_OK)
        return (la_ssize_t)size;
    archive_set_error(archive, status == EXIT_OTHER ? EIO : EINVAL, "%s",
                      stream->parent != NULL ? "its archive member cannot be read"
                                             : inflate_file_reason(stream->file));
    return -1;
}

static int open_archive(struct archive_stream *stream)
{
    struct archive *archive = stream->archive;
    archive_read_support_filter_none(archive);
    if (stream->format == ARCHIVE_STREAM_ZIP)
        archive_read_support_format_zip_streamable(archive);
    else
        archive_read_support_format_tar(archive);
    archive_read_set_read_callback(archive, read_block);
    archive_read_set_callback_data(archive, stream);
    if (archive_read_open1(archive) == ARCHIVE_OK)
        return EXIT_OK;
    if (stream->parent_status != EXIT_OK)
        return stream->parent_status;
    return error_set(EXIT_CORRUPT_INPUT, "cannot open archive: %s: %s", stream->path,
                     archive_reason(archive));
}

int archive_stream_open(struct archive_stream **stream, const char *path,
                        enum archive_stream_format format, unsigned threads)
{
    *stream = calloc(1, sizeof **stream);
    if (*stream != NULL)
        (*stream)->format = format;
    if (*stream == NULL || ((*stream)->path = strdup(path)) == NULL ||
        ((*stream)->archive = archive_read_new()) == NULL ||
        (format == ARCHIVE_STREAM_ZIP && ((*stream)->tail = malloc(ZIP_END_TAIL)) == NULL)) {
        archive_stream_close(*stream);
        *stream = NULL;
        return error_set(EXIT_OTHER, "cannot open archive: %s: out of memory", path);
    }
    int status = inflate_file_open(&(*stream)->file, path, "cannot open archive", threads);
    if (status == EXIT_OK) {
        (*stream)->file_size = inflate_file_size((*stream)->file);
        status = open_archive(*stream);
    }
    if (status != EXIT_OK) {
        archive_stream_close(*stream);
        *stream = NULL;
    }
    return status;
}

int archive_stream_open_member(struct archive_stream **stream, struct archive_stream *parent)
{
    *stream = calloc(1, sizeof **stream);
    const char *member = parent->member != NULL ? parent->member : "";
    size_t length = strlen(parent->path) + strlen(member) + 3;
    if (*stream == NULL || ((*stream)->path = malloc(length)) == NULL ||
        ((*stream)->block = malloc(NESTED_BLOCK)) == NULL ||
        ((*stream)->archive = archive_read_new()) == NULL) {
        archive_stream_close(*stream);
        *stream = NULL;
        return error_set(EXIT_OTHER, "cannot open archive: %s: %s: out of memory", parent->path,
                         member);
    }
    snprintf((*stream)->path, length, "%s: %s", parent->path, member);
    (*stream)->format = ARCHIVE_STREAM_TAR;
    (*stream)->parent = parent;
    (*stream)->file_size = parent->member_size != ARCHIVE_STREAM_SIZE_UNKNOWN ? parent->member_size
                                                                             : 0;
    int status = open_archive(*stream);
    if (status != EXIT_OK) {
        archive_stream_close(*stream);
        *stream = NULL;
    }
    return status;
}

/* A member's declared size, which readers may allocate by, must fit in what the archive can
   hold: its size stored plain, DEFLATE_MAXIMUM_RATIO times its size gzipped or zipped. */
static bool size_can_follow(const struct archive_stream *stream, uint64_t size)
{
    if (stream->file_size == 0 || size == ARCHIVE_STREAM_SIZE_UNKNOWN)
        return true;
    bool compressed = (stream->file != NULL && inflate_file_compressed(stream->file)) ||
                      stream->format == ARCHIVE_STREAM_ZIP;
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

const char *archive_name_refusal(const char *name)
{
    if (name[0] == '/')
        return "absolute path";
    if (has_parent_component(name))
        return "path with a \"..\" component";
    return NULL;
}

/* The reason a member must not be streamed, or NULL when it is a safe regular file or directory. */
static const char *refusal_reason(struct archive_entry *entry, const char *name)
{
    const char *by_name = archive_name_refusal(name);
    if (by_name != NULL)
        return by_name;
    if (archive_entry_hardlink(entry) != NULL)
        return "hard link";
    if (archive_entry_is_encrypted(entry))
        return "encrypted";
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

/* Reads on past the tar end-of-archive blocks or the zip's last local member to the end of the
   file, so that the gzip trailers and what follows the last member are checked, as gzip -t
   would, and a zip's central directory is found whole and listing the members streamed. */
static int check_end(struct archive_stream *stream)
{
    const void *block;
    size_t size;
    do {
        int status = next_block(stream, &block, &size);
        if (status != EXIT_OK && stream->parent != NULL)
            return status;
        if (status != EXIT_OK)
            return error_set(status, "cannot read archive: %s: after the last member: %s",
                             stream->path, inflate_file_reason(stream->file));
    } while (size > 0);
    char reason[160];
    if (stream->format == ARCHIVE_STREAM_ZIP &&
        !zip_end_check(stream->tail, stream->tail_size, stream->length, stream->members, reason,
                       sizeof reason))
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: after the last member: %s",
                         stream->path, reason);
    return EXIT_OK;
}

static int member_error(const struct archive_stream *stream)
{
    if (stream->parent_status != EXIT_OK)
        return stream->parent_status;
    return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: %s", stream->path,
                     stream->member != NULL ? stream->member : "", archive_reason(stream->archive));
}

/* At a member's end: it must hold what its header declared. A zip local header may declare a
   size and set flag bit 3 too, and libarchive then checks the data against the descriptor only. */
static int check_member_size(struct archive_stream *stream)
{
    stream->unfinished = false;
    if (stream->member_size == ARCHIVE_STREAM_SIZE_UNKNOWN ||
        stream->member_read == stream->member_size)
        return EXIT_OK;
    return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s: holds %" PRIu64
                     " bytes, its header declares %" PRIu64, stream->path, stream->member,
                     stream->member_read, stream->member_size);
}

/* Reads the current zip member to its end, where libarchive checks its size and CRC-32. Through
   archive_read_data, which may hold the rest of a block the caller began. */
static int finish_member(struct archive_stream *stream)
{
    unsigned char scratch[16 * 1024];
    size_t read;
    do {
        int status = archive_stream_read(stream, scratch, sizeof scratch, &read);
        if (status != EXIT_OK)
            return status;
    } while (read > 0);
    return EXIT_OK;
}

/* The size of the member whose header was just read. */
static uint64_t declared_size(struct archive_entry *entry)
{
    if (!archive_entry_size_is_set(entry))
        return ARCHIVE_STREAM_SIZE_UNKNOWN;
    la_int64_t size = archive_entry_size(entry);
    return size > 0 ? (uint64_t)size : 0;
}

/* Reads the next header: EXIT_OK with *ENTRY, or with *ENTRY NULL at the end of the members. */
static int next_header(struct archive_stream *stream, struct archive_entry **entry)
{
    int status = archive_read_next_header(stream->archive, entry);
    if (status == ARCHIVE_EOF) {
        *entry = NULL;
        return EXIT_OK;
    }
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN && stream->parent_status != EXIT_OK)
        return stream->parent_status;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
        /* libarchive's zip reader gives no reason when the file ends where a header should be. */
        const char *reason = archive_error_string(stream->archive);
        if (reason == NULL && stream->format == ARCHIVE_STREAM_ZIP)
            reason = "ends before its central directory: truncated";
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s", stream->path,
                         reason != NULL ? reason : "unreadable archive");
    }
    stream->members++;
    if (archive_entry_pathname(*entry) == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: member without a name",
                         stream->path);
    return EXIT_OK;
}

int archive_stream_next(struct archive_stream *stream, const char **name, uint64_t *size)
{
    if (stream->unfinished) {
        int status = finish_member(stream);
        if (status != EXIT_OK)
            return status;
    }
    stream->member = NULL;
    *name = NULL;
    *size = 0;
    for (;;) {
        struct archive_entry *entry;
        int status = next_header(stream, &entry);
        if (status != EXIT_OK)
            return status;
        if (entry == NULL)
            return check_end(stream);
        const char *member = archive_entry_pathname(entry);
        const char *reason = refusal_reason(entry, member);
        if (reason != NULL)
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: %s",
                             stream->path, member, reason);
        if (archive_entry_filetype(entry) == AE_IFDIR)
            continue;
        uint64_t declared = declared_size(entry);
        if (!size_can_follow(stream, declared))
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: declares %"
                             PRIu64 " bytes, more than an archive of %" PRIu64 " bytes can hold",
                             stream->path, member, declared, stream->file_size);
        stream->member = member;
        stream->member_size = declared;
        stream->member_read = 0;
        stream->unfinished = stream->format == ARCHIVE_STREAM_ZIP;
        *name = member;
        *size = declared;
        return EXIT_OK;
    }
}

int archive_stream_read(struct archive_stream *stream, void *buffer, size_t size, size_t *read)
{
    la_ssize_t count = archive_read_data(stream->archive, buffer, size);
    if (count < 0) {
        *read = 0;
        return member_error(stream);
    }
    *read = (size_t)count;
    stream->member_read += (uint64_t)count;
    if (count == 0 && size > 0)
        return check_member_size(stream);
    return EXIT_OK;
}

int archive_stream_read_exactly(struct archive_stream *stream, void *buffer, size_t size)
{
    unsigned char *cursor = buffer;
    while (size > 0) {
        size_t read;
        int status = archive_stream_read(stream, cursor, size, &read);
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

/* Grows *BYTES for a member that has filled its *CAPACITY: first to its declared size and a
   byte (to see its end), then doubling, never beyond LIMIT and a byte. */
static int grow_member(struct archive_stream *stream, unsigned char **bytes, size_t *capacity,
                       size_t limit)
{
    size_t most = limit < SIZE_MAX ? limit + 1 : SIZE_MAX;
    size_t wanted = FIRST_MEMBER_CAPACITY;
    if (*capacity > 0)
        wanted = *capacity <= SIZE_MAX / 2 ? *capacity * 2 : SIZE_MAX;
    else if (stream->member_size < most)
        wanted = (size_t)stream->member_size + 1;
    if (wanted > most)
        wanted = most;
    unsigned char *grown = realloc(*bytes, wanted);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot read archive: %s: %s: out of memory", stream->path,
                         stream->member);
    *bytes = grown;
    *capacity = wanted;
    return EXIT_OK;
}

int archive_stream_read_member(struct archive_stream *stream, unsigned char **bytes,
                               size_t *capacity, size_t *size, size_t limit)
{
    size_t total = 0;
    for (;;) {
        if (total == *capacity) {
            int status = grow_member(stream, bytes, capacity, limit);
            if (status != EXIT_OK)
                return status;
        }
        size_t read;
        int status = archive_stream_read(stream, *bytes + total, *capacity - total, &read);
        if (status != EXIT_OK)
            return status;
        if (read == 0)
            break;
        total += read;
        if (total > limit)
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: holds more "
                             "than %zu bytes", stream->path, stream->member, limit);
    }
    *size = total;
    return EXIT_OK;
}

void archive_stream_close(struct archive_stream *stream)
{
    if (stream == NULL)
        return;
    if (stream->archive != NULL)
        archive_read_free(stream->archive);
    inflate_file_close(stream->file);
    free(stream->block);
    free(stream->tail);
    free(stream->path);
    free(stream);
}
