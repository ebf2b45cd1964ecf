/* The shards an earlier set's listing (SPLIT.json in the bucket) names, read before the new set
   replaces it, so that those the new set lacks are deleted once it is published. */
#ifndef FUEL_S3_EARLIER_SET_H
#define FUEL_S3_EARLIER_SET_H

#include <stddef.h>

struct s3_earlier_set {
    char **names;   /* relative to the prefix, as the listing names them */
    size_t count;
};

/* Reads s3://BUCKET/PREFIX + LISTING (a .json listing) into SET: nothing when the object is not
   there or is not a listing fuel wrote. EXIT_TRANSFER when the store fails or refuses. */
int s3_earlier_set_read(const char *bucket, const char *prefix, const char *listing,
                        struct s3_earlier_set *set);
void s3_earlier_set_free(struct s3_earlier_set *set);

#endif
