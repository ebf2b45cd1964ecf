/* The one step every command that reads an H5PYDataset file takes first: open it and give the
   checks' verdict, so that a malformed file gets the same answer from every command. */
#ifndef FUEL_H5PY_INPUT_H
#define FUEL_H5PY_INPUT_H

#include "h5py_reader.h"

/* Opens PATH (h5py_reader_open) and runs h5py_check_structure on it. A file breaking an invariant
   is refused with its first violation: EXIT_CORRUPT_INPUT, "check failed: PATH:
   VIOLATION", followed by "(and N more: fuel info --check lists them)" when there are others.
   Otherwise as h5py_reader_open; *FILE is NULL on failure. */
int h5py_input_open(struct h5py_file **file, const char *path);

/* As h5py_input_open, the file read in place (h5py_reader_open_remote). */
int h5py_input_open_remote(struct h5py_file **file, const char *shown,
                           const struct h5py_remote *remote);

/* The same verdict on FILE, open already (fuel info describes a file before judging it). */
int h5py_input_verdict(const struct h5py_file *file);

#endif
