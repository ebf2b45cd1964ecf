/* The names of a label source's classes: the `SOURCE_classes` dataset fuel pack stores (class i
   at row i), else the file's card (its `fuel_card` root attribute's "classes" for the source). */
#ifndef FUEL_CLASS_NAMES_H
#define FUEL_CLASS_NAMES_H

#include "h5py_reader.h"

#include <stddef.h>

/* More classes than this are refused as a corrupt list. */
#define CLASS_NAMES_MAX 65536

struct class_names {
    size_t count;
    char **names; /* class i's name at i; none when count is 0 */
};

/* The class names of SOURCE in FILE into NAMES (count 0 when the file gives none). */
int class_names_read(const struct h5py_file *file, const char *source, struct class_names *names);

/* Class NUMBER's name, NULL when unnamed (beyond the list, or null or empty in it). */
const char *class_name(const struct class_names *names, size_t number);

void class_names_free(struct class_names *names);

#endif
