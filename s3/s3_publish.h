/* Outputs published to s3://BUCKET/PREFIX: written to a local staging first (the free space
   checked), then uploaded (s3_upload.h), the staging removed. SIGINT and SIGTERM during an upload
   abort it; what a SIGKILL leaves is found by fuel clean (the staging under $TMPDIR, the
   incomplete multipart upload under the prefix). */
#ifndef FUEL_S3_PUBLISH_H
#define FUEL_S3_PUBLISH_H

#include "common/base/staging.h"
#include "common/download/s3_location.h"
#include "s3/s3_earlier_set.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct s3_publish {
    struct s3_location location;  /* its key a prefix ending with '/' or "" */
    struct staging staging;
    unsigned parts_in_flight;
};

/* Parses OUTPUT and makes the local staging under $TMPDIR (else /tmp), after checking that BYTES
   fit there. EXIT_CORRUPT_INPUT for a bad name, EXIT_TRANSFER for bad credentials, EXIT_WRITE
   when the staging cannot be made or BYTES do not fit. */
int s3_publish_begin(struct s3_publish *publish, const char *output, uint64_t bytes,
                     unsigned parts_in_flight);

/* Uploads LOCAL_PATH (a file in the staging) as PREFIX + its base name; the object's s3:// URL
   into URL. The part size is FUEL_S3_PART_SIZE bytes when set, else S3_PART_DEFAULT. */
int s3_publish_file(struct s3_publish *publish, const char *local_path, char *url, size_t size);

/* Called with the s3:// URL of each listing once it is published. */
typedef void s3_published_visitor(const char *url, void *context);

/* Publishes the staging as sets under the prefix, each file as PREFIX + its name relative to the
   staging (hidden ones left out): first the objects LISTINGS name are deleted (so a killed run
   leaves no listing beside a half-replaced set), then every other file is uploaded, then the
   LISTINGS in their order, PUBLISHED called with each one's URL; last, the entries of the EARLIER
   set (NULL: none) that the new set lacks are deleted, objects and folders of objects. */
int s3_publish_set(struct s3_publish *publish, char *const *listings, size_t listing_count,
                   const struct s3_earlier_set *earlier, s3_published_visitor *published,
                   void *context);

/* Whether PREFIX + NAME is in the bucket as fuel publishes objects (its sha256 in its metadata):
   *PRESENT, and its URL into URL. EXIT_TRANSFER when the store fails or refuses. */
int s3_publish_present(const struct s3_publish *publish, const char *name, bool *present,
                       char *url, size_t size);

/* Removes the staging and what is left in it. */
void s3_publish_end(struct s3_publish *publish);

#endif
