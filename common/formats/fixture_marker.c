/* Finds the mark of `fuel fixture --raw` in a file's first bytes (see fixture_marker.h). */
#include "fixture_marker.h"

#include <string.h>

enum { GZIP_TEXT = 1, GZIP_HEADER_CRC = 2, GZIP_EXTRA = 4, GZIP_NAME = 8, GZIP_COMMENT = 16 };

/* The offset just past the zero-terminated string at OFFSET; LENGTH when it is not terminated. */
static size_t past_string(const unsigned char *head, size_t length, size_t offset)
{
    const unsigned char *end = offset < length ? memchr(head + offset, 0, length - offset) : NULL;
    return end != NULL ? (size_t)(end - head) + 1 : length;
}

/* RFC 1952: ID1 ID2 CM FLG MTIME(4) XFL OS, then the optional extra field, name and comment. */
static bool gzip_comment_is_mark(const unsigned char *head, size_t length)
{
    unsigned flags = head[3];
    size_t offset = 10;
    if (flags & GZIP_EXTRA) {
        if (offset + 2 > length)
            return false;
        offset += 2 + (size_t)(head[offset] | head[offset + 1] << 8);
    }
    if (flags & GZIP_NAME)
        offset = past_string(head, length, offset);
    size_t mark = strlen(FIXTURE_MARKER);
    return (flags & GZIP_COMMENT) && offset + mark < length &&
           memcmp(head + offset, FIXTURE_MARKER, mark) == 0 && head[offset + mark] == 0;
}

/* APPNOTE 4.3.16: a zip ends with its end of central directory record, "PK\5\6", 16 bytes of
   counts and offsets, the comment's length (2 bytes) and the comment. */
static bool zip_comment_is_mark(const unsigned char *tail, size_t length)
{
    size_t mark = strlen(FIXTURE_MARKER);
    if (length < 22 + mark)
        return false;
    const unsigned char *record = tail + length - 22 - mark;
    return memcmp(record, "PK\5\6", 4) == 0 && (size_t)(record[20] | record[21] << 8) == mark &&
           memcmp(record + 22, FIXTURE_MARKER, mark) == 0;
}

bool fixture_marker_found(const unsigned char *head, size_t length, const unsigned char *tail,
                          size_t tail_length)
{
    if (length >= 10 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8)
        return gzip_comment_is_mark(head, length);
    if (length >= 4 && memcmp(head, "PK\3\4", 4) == 0)
        return zip_comment_is_mark(tail, tail_length);
    size_t window = length < 128 ? length : 128, mark = strlen(FIXTURE_MARKER);
    static const char last_line[] = "|" FIXTURE_MARKER "\n";
    size_t line = sizeof last_line - 1;
    return (window >= mark && memmem(head, window, FIXTURE_MARKER, mark) != NULL) ||
           (tail_length >= line && memcmp(tail + tail_length - line, last_line, line) == 0 &&
            (tail_length == line || tail[tail_length - line - 1] == '\n'));
}
