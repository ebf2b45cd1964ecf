/* Binarized MNIST's three .amat files from Hugo Larochelle's page; no sizes or checksums are
   published. */
#include "binarized_mnist.h"

#include "datasets.h"

#define TORONTO "http://www.cs.toronto.edu/~larocheh/public/datasets/binarized_mnist/"
#define AMAT_FILE(file) {.name = file, .urls = {TORONTO file, NULL}}

const struct dataset_file binarized_mnist_files[BINARIZED_MNIST_FILE_COUNT] = {
    [BINARIZED_MNIST_TRAIN] = AMAT_FILE("binarized_mnist_train.amat"),
    [BINARIZED_MNIST_VALID] = AMAT_FILE("binarized_mnist_valid.amat"),
    [BINARIZED_MNIST_TEST] = AMAT_FILE("binarized_mnist_test.amat"),
};

const struct dataset binarized_mnist_dataset = {
    .name = "binarized_mnist",
    .summary = "MNIST thresholded to 0/1, 50000 train + 10000 valid + 10000 test",
    DATASET_FILES(binarized_mnist_files),
    .converter = &binarized_mnist_converter,
};
