/* One verified local copy of an S3 object (Fuel's local_data_path for s3:// names): fetched once
   under the directory's lock into LOCAL/s3/BUCKET/KEY, checked against the object's size and its
   x-amz-meta-sha256 (else a single-part ETag's MD5), reused while it still matches. */
#ifndef FUEL_S3_CACHE_H
#define FUEL_S3_CACHE_H

#include "common/base/progress.h"

#include <stdbool.h>
#include <stddef.h>

/* Makes or reuses the copy of the object URL under LOCAL_DIRECTORY; its path into PATH, whether
   this call fetched it into *COPIED. EXIT_CORRUPT_INPUT for a bad name or a prefix, EXIT_TRANSFER
   when the store refuses or fails, EXIT_CHECKSUM when the bytes do not match, EXIT_WRITE. */
int s3_cache(const char *url, const char *local_directory, enum progress_mode progress,
             char *path, size_t size, bool *copied);

#endif
