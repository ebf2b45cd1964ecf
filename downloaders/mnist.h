/* MNIST's and Fashion-MNIST's raw files: the same four IDX names, from different sites. */
#ifndef FUEL_DOWNLOADERS_MNIST_H
#define FUEL_DOWNLOADERS_MNIST_H

#include "dataset.h"

/* Each split's images, then its labels: the order of the file tables. */
enum mnist_file {
    MNIST_TRAIN_IMAGES,
    MNIST_TRAIN_LABELS,
    MNIST_TEST_IMAGES,
    MNIST_TEST_LABELS,
    MNIST_FILE_COUNT
};

extern const struct dataset_file mnist_files[MNIST_FILE_COUNT];
extern const struct dataset_file fashion_mnist_files[MNIST_FILE_COUNT];

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N), Fashion-MNIST's too. */
#define MNIST_SPLITS {"train", "test"}

#endif
