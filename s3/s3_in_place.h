/* An s3:// HDF5 object read in place by HDF5's read-only S3 driver (ros3) where it can be, for
   the commands that read a few blocks of it (fuel fixture --from, fuel preview): the driver of
   Debian's HDF5 1.10.8 signs with a key pair only (no session token) and neither verifies TLS
   against a chosen CA bundle nor skips verifying it, so those cases read the verified local
   copy (s3_cache.h) instead. */
#ifndef FUEL_S3_IN_PLACE_H
#define FUEL_S3_IN_PLACE_H

#include "common/h5py/h5py_reader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct s3_in_place {
    struct h5py_remote remote; /* pointing into the members below */
    char *location;
    char region[64], key_id[256], secret[256];
    char sha256[72];            /* the object's recorded x-amz-meta-sha256 */
};

/* Prepares reading the object URL in place: *USABLE, or not with WHY (a few words: "a session
   token", "AWS_CA_BUNDLE", "--insecure", "no sha256 recorded") when the driver cannot read it as
   fuel must. EXIT_CORRUPT_INPUT for a bad name or a prefix, EXIT_TRANSFER when the store refuses
   or fails. */
int s3_in_place_prepare(struct s3_in_place *place, const char *url, bool *usable, char *why,
                        size_t size);

void s3_in_place_free(struct s3_in_place *place);

#endif
