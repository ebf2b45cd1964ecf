/* CIFAR-100's raw file: one archive of pickled batches. */
#ifndef FUEL_DOWNLOADERS_CIFAR100_H
#define FUEL_DOWNLOADERS_CIFAR100_H

#include "dataset.h"

enum cifar100_file { CIFAR100_ARCHIVE, CIFAR100_FILE_COUNT };

extern const struct dataset_file cifar100_files[CIFAR100_FILE_COUNT];

#endif
