/* The input of fuel export and fuel preview: a file, or a name found through the data path. */
#ifndef FUEL_INPUT_FIND_H
#define FUEL_INPUT_FIND_H

#include <stddef.h>

/* ARGUMENT when it names an existing file; otherwise ARGUMENT, then ARGUMENT.hdf5, looked up in
   the data path. EXIT_MISSING_INPUT when none exists. */
int input_find(const char *argument, char *path, size_t size);

#endif
