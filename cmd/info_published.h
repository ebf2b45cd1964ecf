/* fuel-info's verdict on whether a file's inputs are the published files of the built-in dataset
   its recorded command names (published_inputs.h, input_verdict.h). */
#ifndef FUEL_INFO_PUBLISHED_H
#define FUEL_INFO_PUBLISHED_H

#include "common/h5py/h5py_reader.h"

#include <jansson.h>

/* "inputs of cifar10: the published files", ... (caller frees); NULL when there is no line to
   show: no provenance, or no built-in dataset named by its argv (a cut, an extra dataset). */
char *info_inputs_line(const struct h5py_file *file);

/* The same line from the fuel_provenance text PROVENANCE (NULL: none). */
char *info_inputs_sentence(const char *provenance);

/* The same verdict for --json: {"published": "files" | "content" | "no" | "unknown", "inputs":
   [{"name", "published", "reason"}, ...]}; JSON null where there is no line. */
json_t *info_inputs_json(const struct h5py_file *file);

#endif
