/* The state of a dataset's raw file in a directory: missing, partial, present, verified. */
#ifndef FUEL_RAW_FILE_H
#define FUEL_RAW_FILE_H

#include "common/base/hash.h"

#include <stdbool.h>
#include <stdint.h>

enum raw_file_state {
    RAW_MISSING,    /* neither NAME nor NAME.part */
    RAW_PARTIAL,    /* only NAME.part: a download stopped part way */
    RAW_PRESENT,    /* NAME, of the expected size (or no size is known); not hashed */
    RAW_WRONG_SIZE, /* NAME, of another size than the expected one */
    RAW_VERIFIED,   /* NAME, hashed: its checksum matches */
    RAW_CORRUPT,    /* NAME, hashed: its checksum differs */
};

struct raw_file {
    enum raw_file_state state;
    uint64_t size; /* bytes of NAME, or of NAME.part when partial */
};

/* Looks at DIRECTORY/NAME and DIRECTORY/NAME.part. With VERIFY and a CHECKSUM (md5 or sha256
   hex), a present file is hashed to tell verified from corrupt. EXPECTED_SIZE 0: unknown.
   EXIT_OTHER when a file cannot be read while hashing. */
int raw_file_inspect(const char *directory, const char *name, uint64_t expected_size,
                     const char *checksum, bool verify, struct raw_file *file);

/* "missing", "partial", "present", "wrong size", "verified", "corrupt". */
const char *raw_file_state_name(enum raw_file_state state);

#endif
