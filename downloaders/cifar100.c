/* CIFAR-100's cifar-100-python.tar.gz from Alex Krizhevsky's page. */
#include "cifar100.h"

#include "datasets.h"

const struct dataset_file cifar100_files[CIFAR100_FILE_COUNT] = {
    [CIFAR100_ARCHIVE] = {.name = "cifar-100-python.tar.gz",
                          .urls = {"https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
                                   NULL},
                          .size = 169001437, .checksum = "eb9058c3a382ffc7106e4002c42a8d85"},
};

const char *const cifar100_members[CIFAR100_BATCHES] = {
    CIFAR100_FOLDER "/train",
    CIFAR100_FOLDER "/test",
};

const struct dataset cifar100_dataset = {
    .name = "cifar100",
    .summary = "100 classes of 32x32 colour images, 50000 train + 10000 test",
    DATASET_FILES(cifar100_files),
    .converter = &cifar100_converter,
};
