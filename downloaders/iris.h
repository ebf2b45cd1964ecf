/* Iris's raw file: UCI's iris.data. */
#ifndef FUEL_DOWNLOADERS_IRIS_H
#define FUEL_DOWNLOADERS_IRIS_H

#include "dataset.h"

enum iris_file { IRIS_DATA, IRIS_FILE_COUNT };

extern const struct dataset_file iris_files[IRIS_FILE_COUNT];

/* The species iris.data names in its last column, in the order of their class numbers. */
enum { IRIS_SPECIES = 3 };
extern const char *const iris_species[IRIS_SPECIES];

/* The one split of the converted file: the converter's and the fixture maker's (-n). */
#define IRIS_SPLIT "all"

#endif
