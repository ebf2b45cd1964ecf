/* Checks the end of a zip archive: its end of central directory record and the member count. */
#ifndef FUEL_ZIP_END_H
#define FUEL_ZIP_END_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The end of central directory record (22 bytes), its longest comment, the zip64 locator (20)
   and the zip64 record (56) before it: how much of an archive's end the check needs. */
enum { ZIP_END_TAIL = 22 + 65535 + 20 + 56 };

/* Where a zip archive's central directory is, as its end records say. */
struct zip_end_record {
    uint64_t entries;          /* the entries the central directory lists, directories included */
    uint64_t directory_offset; /* where it starts */
    uint64_t directory_size;   /* its bytes */
    uint64_t directory_end;    /* where the record after it starts: the zip64 end record, else the
                                  end record; a well-formed archive has offset + size = end */
    bool zip64;                /* the counts come from the zip64 end record (else 16 bits wide) */
};

/* TAIL is the last TAIL_SIZE bytes (at most ZIP_END_TAIL) of an archive of ARCHIVE_SIZE bytes.
   True with *RECORD when the archive ends with an end of central directory record (and the zip64
   one a locator points to); else false with why in REASON. */
bool zip_end_locate(const unsigned char *tail, size_t tail_size, uint64_t archive_size,
                    struct zip_end_record *record, char *reason, size_t reason_size);

/* TAIL is the last TAIL_SIZE bytes (at most ZIP_END_TAIL) of an archive of ARCHIVE_SIZE bytes
   whose local headers announced MEMBERS members, directories included. True when the archive
   ends with an end of central directory record (and the zip64 one a locator points to) listing
   as many members; else false with why in REASON, e.g. "no end of central directory record". */
bool zip_end_check(const unsigned char *tail, size_t tail_size, uint64_t archive_size,
                   uint64_t members, char *reason, size_t reason_size);

#endif
