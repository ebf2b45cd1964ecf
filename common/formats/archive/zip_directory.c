/* Reads a zip archive's central directory entry by entry, as Python's zipfile does (until the
   directory's declared size is used up, the count checked against the end record's), through a
   fixed window: memory does not grow with the entries. An entry's member must lie before the
   directory and, when it does not lie before the member of the entry listed before it (a
   directory in another order than its members is left to the readers that stream them), after
   that member's end: overlapping entries (the zip bomb whose entries all point at one member) are
   refused, as Python's zipfile and unzip refuse them. */
#include "zip_directory.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "archive_read.h"
#include "zip_end.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    ENTRY_HEADER = 46,
    LOCAL_HEADER = 30,
    ZIP64_EXTRA = 0x0001,
    /* One entry at most: the header and three 16-bit lengths of name, extra field and comment. */
    WINDOW = 4 * 65536,
};

struct directory_reader {
    int descriptor;
    const char *path;
    uint64_t next;      /* the archive offset of the next byte to read into the window */
    uint64_t end;       /* the offset where the directory ends */
    uint64_t directory; /* the offset where it starts */
    uint64_t previous;  /* where the member of the entry before starts */
    uint64_t taken;     /* and where it ends, at the earliest */
    unsigned char *window;
    size_t start;       /* the unparsed bytes are window[start, filled) */
    size_t filled;
    char name[65536];
};

static uint32_t little_endian_16(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8;
}

static uint32_t little_endian_32(const unsigned char *bytes)
{
    return little_endian_16(bytes) | little_endian_16(bytes + 2) << 16;
}

static int damaged(const struct directory_reader *reader, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: %s", reader->path, why);
}

static int read_fully(struct directory_reader *reader, void *buffer, size_t size, uint64_t offset)
{
    unsigned char *cursor = buffer;
    while (size > 0) {
        ssize_t count = pread(reader->descriptor, cursor, size, (off_t)offset);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return error_set(EXIT_OTHER, "cannot read zip directory: %s: %s", reader->path,
                             strerror(errno));
        if (count == 0)
            return damaged(reader, "the file ended while being read");
        cursor += count;
        size -= (size_t)count;
        offset += (uint64_t)count;
    }
    return EXIT_OK;
}

/* Makes at least WANTED unparsed bytes available, or fails when the directory ends first. */
static int window_need(struct directory_reader *reader, size_t wanted)
{
    size_t available = reader->filled - reader->start;
    if (available >= wanted)
        return EXIT_OK;
    if (wanted > available + (reader->end - reader->next))
        return damaged(reader, "an entry runs past the end of the central directory");
    memmove(reader->window, reader->window + reader->start, available);
    reader->start = 0;
    reader->filled = available;
    uint64_t left = reader->end - reader->next;
    size_t room = WINDOW - available;
    size_t count = left < room ? (size_t)left : room;
    int result = read_fully(reader, reader->window + available, count, reader->next);
    reader->next += count;
    reader->filled += count;
    return result;
}

static uint64_t little_endian_64(const unsigned char *bytes)
{
    return (uint64_t)little_endian_32(bytes) | (uint64_t)little_endian_32(bytes + 4) << 32;
}

/* FIELDS (uncompressed size, compressed size, local header offset) saturated at 0xffffffff
   replaced by the 64-bit values of the zip64 extra field, which holds them in that order. */
static void zip64_values(const unsigned char *extra, size_t length, uint64_t fields[3])
{
    size_t at = 0;
    while (at + 4 <= length) {
        size_t block = little_endian_16(extra + at + 2);
        if (little_endian_16(extra + at) == ZIP64_EXTRA) {
            size_t cursor = at + 4, stop = at + 4 + block < length ? at + 4 + block : length;
            for (int field = 0; field < 3; field++)
                if (fields[field] == 0xffffffffu && cursor + 8 <= stop) {
                    fields[field] = little_endian_64(extra + cursor);
                    cursor += 8;
                }
            return;
        }
        at += 4 + block;
    }
}

/* Whether the member of the entry HEADER describes (its local header, its name and its compressed
   data at the least) lies before the directory, and after the end of the one before it unless it
   starts before that one. */
static int extent_check(struct directory_reader *reader, const unsigned char *header,
                        const char *name)
{
    size_t name_length = little_endian_16(header + 28);
    uint64_t fields[3] = {little_endian_32(header + 24), little_endian_32(header + 20),
                          little_endian_32(header + 42)};
    zip64_values(header + ENTRY_HEADER + name_length, little_endian_16(header + 30), fields);
    uint64_t offset = fields[2], least = LOCAL_HEADER + name_length;
    if (offset >= reader->previous && offset < reader->taken)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: %s: overlaps the "
                         "entry listed before it (its member at offset %" PRIu64 ", that one's "
                         "ends at %" PRIu64 " at the earliest)", reader->path, name, offset,
                         reader->taken);
    if (offset > reader->directory || fields[1] > reader->directory - offset ||
        least > reader->directory - offset - fields[1])
        return error_set(EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: %s: its member "
                         "runs into the central directory", reader->path, name);
    reader->previous = offset;
    reader->taken = offset + least + fields[1];
    return EXIT_OK;
}

/* A member named by an absolute path or one climbing with "..", whichever it replaces (a face
   of CelebA), is refused by its name, as the streaming reader refuses it. A member a Unix zip
   marks as a symbolic link (its mode in the high half of the external
   attributes) is refused as the tar reader refuses one: libarchive's streaming reader, which sees
   the local headers alone, would hand over the link's target as the member's bytes. */
static int kind_check(const struct directory_reader *reader, const unsigned char *header,
                      const char *name)
{
    enum { MADE_ON_UNIX = 3, MODE_TYPE = 0170000, MODE_LINK = 0120000 };
    uint32_t mode = little_endian_32(header + 38) >> 16;
    const char *refused = archive_name_refusal(name);
    if (refused != NULL)
        return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: %s", reader->path,
                         name, refused);
    if (header[5] == MADE_ON_UNIX && (mode & MODE_TYPE) == MODE_LINK)
        return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: symbolic link",
                         reader->path, name);
    return EXIT_OK;
}

/* Parses the entry at the window's start, hands its name to VISIT and passes it. */
static int next_entry(struct directory_reader *reader, zip_directory_visit visit, void *context)
{
    int result = window_need(reader, ENTRY_HEADER);
    if (result != EXIT_OK)
        return result;
    const unsigned char *header = reader->window + reader->start;
    if (little_endian_32(header) != 0x02014b50u)
        return damaged(reader, "an entry without the central directory signature");
    size_t name_length = little_endian_16(header + 28);
    size_t length = ENTRY_HEADER + name_length + little_endian_16(header + 30) +
                    little_endian_16(header + 32);
    result = window_need(reader, length);
    if (result != EXIT_OK)
        return result;
    const unsigned char *name = reader->window + reader->start + ENTRY_HEADER;
    if (memchr(name, '\0', name_length) != NULL)
        return damaged(reader, "an entry name holds a NUL byte");
    memcpy(reader->name, name, name_length);
    reader->name[name_length] = '\0';
    result = kind_check(reader, header, reader->name);
    if (result == EXIT_OK)
        result = extent_check(reader, header, reader->name);
    reader->start += length;
    return result != EXIT_OK ? result : visit(context, reader->name);
}

static int read_end(struct directory_reader *reader, uint64_t size, struct zip_end_record *record)
{
    size_t tail_size = size < ZIP_END_TAIL ? (size_t)size : ZIP_END_TAIL;
    unsigned char *tail = malloc(tail_size > 0 ? tail_size : 1);
    if (tail == NULL)
        return error_set(EXIT_OTHER, "cannot read zip directory: %s: out of memory", reader->path);
    int result = read_fully(reader, tail, tail_size, size - tail_size);
    char reason[160];
    if (result == EXIT_OK &&
        !zip_end_locate(tail, tail_size, size, record, reason, sizeof reason))
        result = damaged(reader, reason);
    free(tail);
    if (result == EXIT_OK && (record->directory_offset > record->directory_end ||
                              record->directory_end - record->directory_offset !=
                                  record->directory_size))
        result = damaged(reader, "the central directory is not where its end record says");
    return result;
}

static int list_entries(struct directory_reader *reader, const struct zip_end_record *record,
                        zip_directory_visit visit, void *context)
{
    reader->next = record->directory_offset;
    reader->end = record->directory_end;
    reader->directory = record->directory_offset;
    uint64_t entries = 0;
    int result = EXIT_OK;
    while (result == EXIT_OK && (reader->filled > reader->start || reader->next < reader->end)) {
        result = next_entry(reader, visit, context);
        entries++;
    }
    uint64_t compared = record->zip64 ? entries : entries & 0xffff;
    if (result == EXIT_OK && compared != record->entries)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read zip directory: %s: holds %" PRIu64
                           " entries, its end record lists %" PRIu64, reader->path, entries,
                           record->entries);
    return result;
}

static int open_archive(struct directory_reader *reader, uint64_t *size)
{
    struct stat status;
    reader->descriptor = input_file_open(reader->path, &status);
    int failure = reader->descriptor < 0 ? errno : 0;
    if (failure != 0 && error_code() == EXIT_CORRUPT_INPUT)
        return error_code();
    if (failure == 0) {
        *size = (uint64_t)status.st_size;
        return EXIT_OK;
    }
    bool missing = failure == ENOENT || failure == ENOTDIR || failure == EACCES ||
                   failure == ELOOP || failure == EISDIR;
    return error_set(missing ? EXIT_MISSING_INPUT : EXIT_OTHER, "cannot open archive: %s: %s",
                     reader->path, strerror(failure));
}

int zip_directory_list(const char *path, zip_directory_visit visit, void *context)
{
    struct directory_reader *reader = calloc(1, sizeof *reader);
    unsigned char *window = malloc(WINDOW);
    if (reader == NULL || window == NULL) {
        free(reader);
        free(window);
        return error_set(EXIT_OTHER, "cannot read zip directory: %s: out of memory", path);
    }
    reader->path = path;
    reader->window = window;
    uint64_t size = 0;
    struct zip_end_record record;
    int result = open_archive(reader, &size);
    if (result == EXIT_OK)
        result = read_end(reader, size, &record);
    if (result == EXIT_OK)
        result = list_entries(reader, &record, visit, context);
    if (reader->descriptor >= 0)
        input_file_close(reader->descriptor);
    free(window);
    free(reader);
    return result;
}
