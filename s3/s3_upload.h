/* Puts a local file into an S3 bucket: one PUT up to the part size, a multipart upload above it
   with a few parts in flight; every part carries its Content-MD5 so the store verifies it, the
   object its sha256 in x-amz-meta-sha256. A failed or interrupted multipart upload is aborted. */
#ifndef FUEL_S3_UPLOAD_H
#define FUEL_S3_UPLOAD_H

#include "common/download/s3_credentials.h"

#include <stdint.h>

/* S3's smallest part but the last, and the default part size. */
#define S3_PART_MINIMUM (5u << 20)
#define S3_PART_DEFAULT (16u << 20)
/* S3's largest part count. */
#define S3_PART_COUNT_LIMIT 10000

struct s3_upload_options {
    uint64_t part_size;       /* multipart above it; 0: S3_PART_DEFAULT */
    unsigned parts_in_flight; /* 0: 4 */
    volatile int *cancel;     /* nonzero: stop and abort (set by a signal handler); NULL: never */
};

/* Uploads the file at PATH as s3://BUCKET/KEY. EXIT_OK once the object is whole; EXIT_TRANSFER
   (the store refused, or interrupted: the multipart upload aborted), EXIT_MISSING_INPUT when PATH
   cannot be read. */
int s3_upload_file(const struct s3_credentials *credentials, const char *path, const char *bucket,
                   const char *key, const struct s3_upload_options *options);

/* Aborts the multipart upload UPLOAD_ID of KEY. */
int s3_upload_abort(const struct s3_credentials *credentials, const char *bucket, const char *key,
                    const char *upload_id);

#endif
