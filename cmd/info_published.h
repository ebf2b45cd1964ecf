/* fuel-info's line on whether a file's inputs are the published files of the built-in dataset its
   recorded command names (published_inputs.h). */
#ifndef FUEL_INFO_PUBLISHED_H
#define FUEL_INFO_PUBLISHED_H

#include "common/h5py/h5py_reader.h"

/* "inputs: the published files of cifar10", ... (caller frees); NULL when there is no line to
   show: no provenance, or no built-in dataset named by its argv (a cut, an extra dataset). */
char *info_inputs_line(const struct h5py_file *file);

#endif
