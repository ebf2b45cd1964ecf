/* The data path with s3://BUCKET/PREFIX entries: each entry searched in order, a directory by its
   files, a bucket prefix by one bounded listing (ListObjectsV2) of the objects directly below it,
   made once per process and per prefix. */
#ifndef FUEL_S3_DATA_PATH_H
#define FUEL_S3_DATA_PATH_H

#include "common/base/config.h"

#include <stddef.h>
#include <stdint.h>

/* The most objects one listed prefix may hold directly below it. */
#define S3_DATA_PATH_LISTING_LIMIT 100000

/* An object directly below a listed prefix: its key without the prefix, its size. */
struct s3_listed {
    char *name;
    uint64_t size;
};

/* The objects directly below the s3:// prefix ENTRY, sorted by name; the listing is made once
   per run and kept. The errors of data_path_search. */
int s3_prefix_list(const char *entry, const struct s3_listed **objects, size_t *count);

/* Writes into PATH the first match of NAME in CONFIG's data path: DIRECTORY/NAME, or the object's
   s3://BUCKET/PREFIX/NAME (its listed size into *OBJECT_SIZE when not NULL; 0 for a file).
   EXIT_MISSING_INPUT naming every entry searched when none holds NAME; EXIT_TRANSFER when a store
   fails or refuses (one line, at once); EXIT_CORRUPT_INPUT for a bad entry, a key NAME would make
   climb out of its prefix, or a prefix listing more than S3_DATA_PATH_LISTING_LIMIT objects. */
int data_path_search(const struct fuel_config *config, const char *name, char *path, size_t size,
                     uint64_t *object_size);

#endif
