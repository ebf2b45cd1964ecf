/* The entries of an earlier set in the bucket: its listing objects copied to the local disk before
   the new set replaces them (its names read from them by the caller, as a local export reads its
   own), so that those the new set lacks are deleted once it is published. */
#ifndef FUEL_S3_EARLIER_SET_H
#define FUEL_S3_EARLIER_SET_H

#include <stdbool.h>
#include <stddef.h>

struct s3_earlier_set {
    char **names;   /* top-level entries relative to the prefix: objects, or folders of objects */
    size_t count;
};

/* Copies s3://BUCKET/PREFIX + NAME (a listing, at most S3_XML_LIMIT bytes) to DIRECTORY/NAME;
   *FOUND false, and nothing written, when the object is not there. EXIT_TRANSFER when the store
   fails or refuses, EXIT_WRITE when the copy cannot be written. */
int s3_earlier_listing_copy(const char *bucket, const char *prefix, const char *name,
                            const char *directory, bool *found);

/* Adds NAME to SET. EXIT_OTHER when out of memory. */
int s3_earlier_set_add(struct s3_earlier_set *set, const char *name);
void s3_earlier_set_free(struct s3_earlier_set *set);

#endif
