/* Fuel's local_data_path caching: a file of the data path copied once to a local directory. */
#ifndef FUEL_LOCAL_CACHE_H
#define FUEL_LOCAL_CACHE_H

#include <stddef.h>

#define LOCAL_CACHE_LOCK_NAME ".fuel-cache.lock"

enum cache_outcome {
    CACHE_COPIED, /* this call made the copy */
    CACHE_REUSED, /* a copy of the same size and modification time was already there */
};

/* Makes LOCAL_DIRECTORY/NAME a copy of ORIGINAL (a regular file) unless one with ORIGINAL's size
   and modification time is there. Runs under an exclusive flock of LOCAL_CACHE_LOCK_NAME in the
   copy's directory (created when missing), so concurrent calls copy once; the copy is written to
   a temporary file, given ORIGINAL's modification time and renamed into place. Writes the copy's
   path into LOCAL_PATH. EXIT_MISSING_INPUT when ORIGINAL is missing, EXIT_WRITE when the copy
   cannot be made. */
int local_cache(const char *original, const char *local_directory, const char *name,
                char *local_path, size_t size, enum cache_outcome *outcome);

#endif
