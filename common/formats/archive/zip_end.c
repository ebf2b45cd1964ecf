/* Checks the end of a zip archive: its end of central directory record and the member count.
   A streaming reader meets the local headers only; a member whose header was damaged is passed
   over silently (libarchive's streaming reader searches on for the next signature), and an
   archive cut inside its central directory streams every member. The count the record keeps
   catches both. */
#include "zip_end.h"

#include <inttypes.h>
#include <stdio.h>

enum {
    END_RECORD_SIZE = 22,
    LOCATOR_SIZE = 20,
    ZIP64_RECORD_SIZE = 56,
    MAXIMUM_COMMENT = 65535,
};

static uint32_t little_endian_16(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8;
}

static uint32_t little_endian_32(const unsigned char *bytes)
{
    return little_endian_16(bytes) | little_endian_16(bytes + 2) << 16;
}

static uint64_t little_endian_64(const unsigned char *bytes)
{
    return (uint64_t)little_endian_32(bytes) | (uint64_t)little_endian_32(bytes + 4) << 32;
}

static bool has_signature(const unsigned char *bytes, uint32_t signature)
{
    return little_endian_32(bytes) == signature;
}

/* Where the end record starts in TAIL: the last signature whose comment reaches exactly to the
   end; TAIL_SIZE when there is none. */
static size_t find_end_record(const unsigned char *tail, size_t tail_size)
{
    if (tail_size < END_RECORD_SIZE)
        return tail_size;
    size_t lowest = tail_size - END_RECORD_SIZE > MAXIMUM_COMMENT
                        ? tail_size - END_RECORD_SIZE - MAXIMUM_COMMENT
                        : 0;
    for (size_t position = tail_size - END_RECORD_SIZE + 1; position-- > lowest;) {
        if (has_signature(tail + position, 0x06054b50u) &&
            position + END_RECORD_SIZE + little_endian_16(tail + position + 20) == tail_size)
            return position;
    }
    return tail_size;
}

/* The zip64 end record the locator before END points to, into RECORD. */
static bool zip64_record(const unsigned char *tail, size_t tail_size, uint64_t archive_size,
                         size_t end, struct zip_end_record *record)
{
    size_t locator = end - LOCATOR_SIZE;
    uint64_t position = little_endian_64(tail + locator + 8);
    uint64_t tail_start = archive_size - tail_size;
    if (locator < ZIP64_RECORD_SIZE || position < tail_start ||
        position - tail_start > locator - ZIP64_RECORD_SIZE)
        return false;
    const unsigned char *bytes = tail + (position - tail_start);
    if (!has_signature(bytes, 0x06064b50u))
        return false;
    record->entries = little_endian_64(bytes + 32);
    record->directory_size = little_endian_64(bytes + 40);
    record->directory_offset = little_endian_64(bytes + 48);
    record->directory_end = position;
    record->zip64 = true;
    return true;
}

bool zip_end_locate(const unsigned char *tail, size_t tail_size, uint64_t archive_size,
                    struct zip_end_record *record, char *reason, size_t reason_size)
{
    size_t end = find_end_record(tail, tail_size);
    if (end == tail_size) {
        snprintf(reason, reason_size, "no end of central directory record at its end: "
                                      "truncated or followed by other bytes");
        return false;
    }
    if (little_endian_16(tail + end + 4) != 0 || little_endian_16(tail + end + 6) != 0) {
        snprintf(reason, reason_size, "a zip archive in several parts");
        return false;
    }
    *record = (struct zip_end_record){
        .entries = little_endian_16(tail + end + 10),
        .directory_size = little_endian_32(tail + end + 12),
        .directory_offset = little_endian_32(tail + end + 16),
        .directory_end = archive_size - tail_size + end,
    };
    if (end >= LOCATOR_SIZE && has_signature(tail + end - LOCATOR_SIZE, 0x07064b50u) &&
        !zip64_record(tail, tail_size, archive_size, end, record)) {
        snprintf(reason, reason_size, "zip64 end of central directory record missing");
        return false;
    }
    return true;
}

bool zip_end_check(const unsigned char *tail, size_t tail_size, uint64_t archive_size,
                   uint64_t members, char *reason, size_t reason_size)
{
    struct zip_end_record record;
    if (!zip_end_locate(tail, tail_size, archive_size, &record, reason, reason_size))
        return false;
    uint64_t compared = record.zip64 ? members : members & 0xffff;
    if (record.entries != compared) {
        snprintf(reason, reason_size,
                 "the central directory lists %" PRIu64 " members, the local headers %" PRIu64,
                 record.entries, members);
        return false;
    }
    return true;
}
