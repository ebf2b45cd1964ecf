/* Binarized MNIST's raw files: one .amat text file a split. */
#ifndef FUEL_DOWNLOADERS_BINARIZED_MNIST_H
#define FUEL_DOWNLOADERS_BINARIZED_MNIST_H

#include "dataset.h"

enum binarized_mnist_file {
    BINARIZED_MNIST_TRAIN,
    BINARIZED_MNIST_VALID,
    BINARIZED_MNIST_TEST,
    BINARIZED_MNIST_FILE_COUNT
};

extern const struct dataset_file binarized_mnist_files[BINARIZED_MNIST_FILE_COUNT];

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N). */
#define BINARIZED_MNIST_SPLITS {"train", "valid", "test"}

#endif
