/* What a dataset or format name may hold: manifests declare them, extra converters carry them. */
#ifndef FUEL_DATASET_NAME_H
#define FUEL_DATASET_NAME_H

#include <stdbool.h>

/* 1 to 64 letters, digits, '_', '.' or '-', not starting with '-' or '.'. */
bool dataset_name_valid(const char *name);

#endif
