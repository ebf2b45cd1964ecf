/* fuel-info's content digests of one file (content_digest.h), computed once and shown in the text
   report, the JSON document and the one-line summary. */
#ifndef FUEL_INFO_DIGEST_H
#define FUEL_INFO_DIGEST_H

#include "info/content_digest.h"
#include "common/h5py/h5py_reader.h"

#include <stdbool.h>

struct info_digest {
    bool computed;
    struct content_digest digest;
    char reason[512]; /* why there is none, when not computed */
};

/* FILE's digests when it passed the checks (VALID); otherwise, or when a source's element type
   has no canonical form, none, with the reason. A source whose values cannot be read is an error
   (EXIT_CORRUPT_INPUT), as are others than EXIT_USAGE. */
int info_digest_compute(const struct h5py_file *file, bool valid, struct info_digest *digest);

/* The hex digest of the whole content, or of the source NAME; NULL when there is none. */
const char *info_digest_whole(const struct info_digest *digest);
const char *info_digest_source(const struct info_digest *digest, const char *name);

/* "Content digest: HEX" and a line per source present, after a blank line. */
int info_digest_print(const struct info_digest *digest, const struct h5py_file *file);

void info_digest_free(struct info_digest *digest);

#endif
