/* Walks a JPEG file's marker segments with pread (ITU T.81, B.1.1): each is FF, its marker, and
   unless standalone a big-endian length counting its own two bytes. */
#include "jpeg_segments.h"

#include "common/base/error.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

enum { START_OF_SCAN = 0xda, END_OF_IMAGE = 0xd9, COMMENT = 0xfe, SKIPPED_OVER = 1024 };

static bool standalone(unsigned marker)
{
    return marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

static bool metadata(unsigned marker)
{
    return (marker >= 0xe0 && marker <= 0xef) || marker == COMMENT;
}

static int cut_short(const char *path, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot decode JPEG: %s: %s", path, why);
}

int jpeg_segments_gather(int descriptor, const char *path, unsigned char *bytes, size_t *size)
{
    unsigned char head[4];
    if (pread(descriptor, head, 2, 0) != 2 || head[0] != 0xff || head[1] != 0xd8)
        return cut_short(path, "Not a JPEG file");
    memcpy(bytes, head, 2);
    *size = 2;
    for (off_t position = 2;;) {
        if (pread(descriptor, head, 4, position) != 4 || head[0] != 0xff)
            return cut_short(path, "its header ends before its first scan");
        unsigned marker = head[1], length = (unsigned)head[2] << 8 | head[3];
        if (marker == 0xff) {
            position++; /* a fill byte */
            continue;
        }
        size_t segment = standalone(marker) ? 2 : 2 + (size_t)length;
        if (!standalone(marker) && length < 2)
            return cut_short(path, "a segment shorter than its length field");
        if (!(metadata(marker) && length > SKIPPED_OVER)) {
            if (segment + 2 > JPEG_SEGMENTS_MAX_BYTES - *size)
                return error_set(EXIT_CORRUPT_INPUT, "cannot decode JPEG: %s: more than %zu "
                                 "bytes of header segments", path, JPEG_SEGMENTS_MAX_BYTES);
            if (pread(descriptor, bytes + *size, segment, position) != (ssize_t)segment)
                return cut_short(path, "its header ends before its first scan");
            *size += segment;
        }
        position += (off_t)segment;
        if (marker == START_OF_SCAN || marker == END_OF_IMAGE)
            break;
    }
    bytes[(*size)++] = 0xff;
    bytes[(*size)++] = END_OF_IMAGE;
    return EXIT_OK;
}
