/* Finds a recorded input (its size and sha256) below s3:// prefixes as input_find does in
   directories: the object of its name first, then any object directly below of its size; each
   candidate is copied once into the local directory (s3_cache: verified against the object's
   own digest) and accepted by its size and sha256 alone. */
#ifndef FUEL_S3_INPUT_FIND_H
#define FUEL_S3_INPUT_FIND_H

#include "common/base/input_find.h"

#include <stddef.h>

/* The most objects of the recorded size copied to be hashed, for one input, by prefix. */
#define S3_INPUT_CANDIDATES 8

/* Looks for WANTED below PREFIXES (COUNT of them; entries that are not s3:// are skipped), the
   copies made under LOCAL_DIRECTORY. SEARCH as input_find fills it (FOUND: the local copy).
   EXIT_TRANSFER when a store fails, EXIT_CHECKSUM when a copy does not match its object. */
int s3_input_find(const struct input_wanted *wanted, const char *const *prefixes, size_t count,
                  const char *local_directory, struct input_search *search);

#endif
