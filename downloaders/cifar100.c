/* CIFAR-100, one tar.gz of Python pickles from Alex Krizhevsky's page. */
#include "downloader.h"

static const struct dataset_file cifar100_files[] = {
    {"cifar-100-python.tar.gz", {"https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz", NULL},
     169001437, "eb9058c3a382ffc7106e4002c42a8d85"},
};

const struct downloader cifar100_downloader = {
    .name = "cifar100",
    .summary = "100 classes of 32x32 colour images, 50000 train + 10000 test",
    .files = cifar100_files,
    .file_count = 1,
};
