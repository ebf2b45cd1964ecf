/* The state of a dataset's raw file in a directory: missing, partial, present, verified (by its
   bytes, or by its decoded content when it comes in other compressed bytes). */
#ifndef FUEL_RAW_FILE_H
#define FUEL_RAW_FILE_H

#include "common/base/hash.h"

#include <stdbool.h>
#include <stdint.h>

/* Computes the sha256 and size of the content of PATH as its readers see it (a gzip file's
   decompressed bytes). Decoding is the formats layer's job: its caller hands one in. EXIT_OK, or
   an error code with the error set when PATH cannot be read or decoded. */
typedef int content_digest_function(const char *path, char hex[HASH_HEX_SIZE], uint64_t *size);

/* What a raw file should be. A content digest also accepts a file whose own bytes differ: the
   same content compressed anew (Debian's Fashion-MNIST files drop the name from the gzip
   header). */
struct raw_file_expectation {
    uint64_t size;                 /* bytes; 0 when unknown */
    const char *checksum;          /* md5 or sha256 in hex; NULL when unknown */
    uint64_t content_size;         /* bytes of the decoded content; 0 when unknown */
    const char *content_sha256;    /* sha256 of the decoded content; NULL when unknown */
    content_digest_function *content_digest; /* NULL: the content is not looked at */
};

enum raw_file_state {
    RAW_MISSING,          /* neither NAME nor NAME.part */
    RAW_PARTIAL,          /* only NAME.part: a download stopped part way */
    RAW_PRESENT,          /* NAME, of the expected size (or of any size when its content may
                             verify it); not hashed */
    RAW_WRONG_SIZE,       /* NAME, of another size than the expected one, its content not
                             matching either when it is known */
    RAW_VERIFIED,         /* NAME, hashed: its checksum matches */
    RAW_CORRUPT,          /* NAME, hashed: its checksum differs, so does its content if known */
    RAW_CONTENT_VERIFIED, /* NAME, other bytes than published, its decoded content matching */
    RAW_NOT_REGULAR,      /* a directory or a FIFO at NAME, or at NAME.part when NAME is absent:
                             fuel download refuses it (exit 4) */
};

struct raw_file {
    enum raw_file_state state;
    uint64_t size; /* bytes of NAME, or of NAME.part when partial */
    const char *kind; /* not regular: what stands there, "a directory" (input_file.h) */
    bool part;        /* not regular: at NAME.part */
};

/* Looks at DIRECTORY/NAME and DIRECTORY/NAME.part. With VERIFY, a present file is hashed to tell
   verified from corrupt, and decoded when its bytes do not match but its content is known.
   EXIT_OTHER when a file cannot be read while hashing. */
int raw_file_inspect(const char *directory, const char *name,
                     const struct raw_file_expectation *expected, bool verify,
                     struct raw_file *file);

/* Whether the decoded content of PATH has EXPECTED's content size and sha256; false when either
   or the digest function is unknown, or when PATH does not decode (the error is cleared). */
bool raw_file_content_matches(const char *path, const struct raw_file_expectation *expected);

/* "missing", "partial", "present", "wrong size", "verified", "corrupt", "verified by content",
   "not a regular file". */
const char *raw_file_state_name(enum raw_file_state state);

#endif
