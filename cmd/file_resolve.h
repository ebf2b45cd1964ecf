/* What a FILE|NAME argument names: a path, a file in the data path, or a dataset's converted file. */
#ifndef FUEL_FILE_RESOLVE_H
#define FUEL_FILE_RESOLVE_H

#include "common/base/config.h"
#include "s3/s3_in_place.h"

#include <stdbool.h>

#include <stddef.h>

/* Writes into PATH the file ARGUMENT names, tried in this order: ARGUMENT itself when it exists
   (a path holding a '/' that does not: EXIT_MISSING_INPUT "not found: PATH"); the first data path directory's file ARGUMENT; for a dataset name, the data
   path's file of its converter's default output (mnist -> mnist.hdf5, each format of svhn); for
   any other name, ARGUMENT.hdf5 in the data path. EXIT_USAGE listing them when a dataset name
   finds several files (svhn with both formats converted); EXIT_MISSING_INPUT naming what was
   looked for and where when none exists. The data path's entries are searched in order; a name
   found in an s3:// entry is its verified local copy (s3_cache), EXIT_TRANSFER when the store
   fails. */
int file_resolve(const char *argument, char *path, size_t size);

/* As file_resolve, but an object, s3://BUCKET/KEY given or a NAME found in an s3:// data path
   entry, is read in place where HDF5's S3 driver can read it (*IN_PLACE, PLACE prepared, to free
   with s3_in_place_free, PATH the URL), else from its verified local copy, said in one line on
   stderr naming PROGRAM, the object and why. For the commands that read a few blocks of a file
   (fuel fixture --from, fuel preview). */
int file_resolve_in_place(const char *program, const char *argument, struct s3_in_place *place,
                          bool *in_place, char *path, size_t size);

/* The same without the first step: ARGUMENT is looked up in the data path only (fuel path, fuel
   cache); a match in an s3:// entry is its s3:// URL, not copied. */
int file_resolve_in_data_path(const char *argument, char *path, size_t size);

/* Where s3:// objects are copied to be read: the local data path, else ~/.cache/fuel. */
void local_copies_directory(const struct fuel_config *config, char *directory, size_t size);

/* Whether ARGUMENT resolves to exactly one file (for completion: offer only what resolves); an
   object is not copied to know it. */
int file_resolves(const char *argument);

#endif
