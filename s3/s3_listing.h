/* Listings of an S3 prefix, page by page: its objects (ListObjectsV2) and its incomplete
   multipart uploads (ListMultipartUploads). A listed key that s3_key_is_safe refuses stops the
   listing with EXIT_CORRUPT_INPUT. */
#ifndef FUEL_S3_LISTING_H
#define FUEL_S3_LISTING_H

#include "common/download/s3_credentials.h"
#include "common/download/s3_xml.h"

/* Called for each entry; a code other than EXIT_OK stops the listing and is returned. */
typedef int s3_entry_visitor(const struct s3_entry *entry, void *data);

int s3_list_objects(const struct s3_credentials *credentials, const char *bucket,
                    const char *prefix, s3_entry_visitor *visit, void *data);
/* The objects directly below PREFIX (a '/' delimiter: deeper keys are not visited). */
int s3_list_children(const struct s3_credentials *credentials, const char *bucket,
                     const char *prefix, s3_entry_visitor *visit, void *data);
int s3_list_uploads(const struct s3_credentials *credentials, const char *bucket,
                    const char *prefix, s3_entry_visitor *visit, void *data);

#endif
