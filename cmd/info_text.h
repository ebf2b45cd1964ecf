/* fuel-info's text output of one file. */
#ifndef FUEL_INFO_TEXT_H
#define FUEL_INFO_TEXT_H

#include "common/h5py/h5py_reader.h"
#include "info_digest.h"

/* Prints FILE (shown as NAME) on stdout: the fixture note, Fuel's block, splits, sources,
   attributes, provenance (and whether its inputs are the published files), content DIGEST; 0, or
   EXIT_OTHER out of memory. */
int info_text_print(const struct h5py_file *file, const char *name,
                    const struct info_digest *digest);

/* The root attribute NAME of FILE, "N/A" when it has none. */
const char *attribute_or_not_available(const struct h5py_file *file, const char *name);

#endif
