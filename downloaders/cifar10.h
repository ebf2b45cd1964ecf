/* CIFAR-10's raw file: one archive of pickled batches. */
#ifndef FUEL_DOWNLOADERS_CIFAR10_H
#define FUEL_DOWNLOADERS_CIFAR10_H

#include "dataset.h"

enum cifar10_file { CIFAR10_ARCHIVE, CIFAR10_FILE_COUNT };

extern const struct dataset_file cifar10_files[CIFAR10_FILE_COUNT];

#endif
