/* fuel-info --json of one file. */
#ifndef FUEL_INFO_JSON_H
#define FUEL_INFO_JSON_H

#include "common/h5py/h5py_reader.h"

/* Prints FILE's JSON document (NAME its "name") on stdout; 0, or EXIT_OTHER. */
int info_json_print(const struct h5py_file *file, const char *name);

#endif
