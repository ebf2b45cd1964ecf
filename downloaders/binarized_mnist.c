/* Larochelle's binarized MNIST, three .amat text files; no sizes or checksums are published. */
#include "downloader.h"

#define TORONTO "http://www.cs.toronto.edu/~larocheh/public/datasets/binarized_mnist/"
#define AMAT_FILE(name) {name, {TORONTO name, NULL}, 0, NULL}

static const struct dataset_file binarized_mnist_files[] = {
    AMAT_FILE("binarized_mnist_train.amat"),
    AMAT_FILE("binarized_mnist_valid.amat"),
    AMAT_FILE("binarized_mnist_test.amat"),
};

const struct downloader binarized_mnist_downloader = {
    .name = "binarized_mnist",
    .summary = "MNIST thresholded to 0/1, 50000 train + 10000 valid + 10000 test",
    .files = binarized_mnist_files,
    .file_count = sizeof binarized_mnist_files / sizeof binarized_mnist_files[0],
};
