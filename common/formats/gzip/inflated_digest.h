/* The sha256 and size of a file's content as the readers see it: inflated when it is gzipped. */
#ifndef FUEL_INFLATED_DIGEST_H
#define FUEL_INFLATED_DIGEST_H

#include "common/base/hash.h"

#include <stdint.h>

/* Reads PATH through the inflater (a file without gzip's magic as it is) and writes the sha256
   of what comes out and its size. EXIT_MISSING_INPUT when it cannot be opened,
   EXIT_CORRUPT_INPUT when it does not inflate, EXIT_OTHER on a read error; the error is set. */
int inflated_digest(const char *path, char hex[HASH_HEX_SIZE], uint64_t *size);

#endif
