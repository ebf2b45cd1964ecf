/* s3://BUCKET/KEY names: parsing, the checks that keep a key inside its prefix, and joining. */
#ifndef FUEL_S3_LOCATION_H
#define FUEL_S3_LOCATION_H

#include <stdbool.h>

/* The longest bucket name S3 allows, with its NUL; the longest key in bytes. */
#define S3_BUCKET_SIZE 64
#define S3_KEY_LIMIT 1024

struct s3_location {
    char bucket[S3_BUCKET_SIZE];
    char *key;                  /* "" for the bucket itself; ends with '/' for a prefix */
};

/* Whether TEXT is an s3:// name. */
bool s3_is_url(const char *text);

/* Splits URL ("s3://BUCKET" or "s3://BUCKET/KEY") into LOCATION. EXIT_CORRUPT_INPUT with the
   message set for a bad bucket name or a key that s3_key_is_safe refuses. */
int s3_location_parse(struct s3_location *location, const char *url);
void s3_location_free(struct s3_location *location);

/* Whether KEY stays inside the prefix it is read under: not absolute, no "." or ".." or empty
   component (a trailing '/' aside), no control character, at most S3_KEY_LIMIT bytes. */
bool s3_key_is_safe(const char *key);

/* PREFIX and NAME joined by one '/' (PREFIX may be "" or end with '/'); NULL when out of memory
   or NAME is not a safe key, with the message set (EXIT_CORRUPT_INPUT). */
char *s3_key_join(const char *prefix, const char *name);

#endif
