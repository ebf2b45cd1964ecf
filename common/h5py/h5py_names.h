/* A file's splits and sources as the lists that end a refusal of one ("no split train: FILE;
   its splits: all"). */
#ifndef FUEL_H5PY_NAMES_H
#define FUEL_H5PY_NAMES_H

#include "h5py_reader.h"

#include <stdbool.h>
#include <stddef.h>

/* "its splits: test, train" into TEXT. */
void h5py_split_list(const struct h5py_file *file, char *text, size_t size);

/* "its sources: features, targets" (those present) into TEXT. */
void h5py_source_list(const struct h5py_file *file, char *text, size_t size);

/* Whether FILE's split array names the split NAME. */
bool h5py_file_has_split(const struct h5py_file *file, const char *name);

/* Whether FILE's split array has SPLIT hold SOURCE (its row available). */
bool h5py_split_holds(const struct h5py_file *file, const char *split, const char *source);

#endif
