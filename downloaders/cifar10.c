/* CIFAR-10's cifar-10-python.tar.gz from Alex Krizhevsky's page. */
#include "cifar10.h"

const struct dataset_file cifar10_files[CIFAR10_FILE_COUNT] = {
    [CIFAR10_ARCHIVE] = {.name = "cifar-10-python.tar.gz",
                         .urls = {"https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", NULL},
                         .size = 170498071, .checksum = "c58f30108f718f92721af3b95e74349a"},
};
