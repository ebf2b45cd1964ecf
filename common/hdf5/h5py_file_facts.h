/* Facts about an H5PYDataset file for callers that also include the writer's declarations (its
   struct h5py_source clashes with the reader's): does it pass the checks, when was it created. */
#ifndef FUEL_H5PY_FILE_FACTS_H
#define FUEL_H5PY_FILE_FACTS_H

#include <stdbool.h>

/* Whether PATH opens as an H5PYDataset file and breaks none of h5py_check's invariants. */
bool h5py_file_passes_check(const char *path);

/* The "created" of PATH's fuel_provenance (caller frees); NULL when there is none. */
char *h5py_file_created(const char *path);

#endif
