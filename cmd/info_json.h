/* fuel-info --json of one file. */
#ifndef FUEL_INFO_JSON_H
#define FUEL_INFO_JSON_H

#include "common/h5py/h5py_reader.h"
#include "info_digest.h"

/* Prints FILE's JSON document (NAME its "name", DIGEST its content digests) on stdout; 0, or
   EXIT_OTHER. */
int info_json_print(const struct h5py_file *file, const char *name,
                    const struct info_digest *digest);

#endif
