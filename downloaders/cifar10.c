/* CIFAR-10, one tar.gz of Python pickles from Alex Krizhevsky's page. */
#include "downloader.h"

static const struct dataset_file cifar10_files[] = {
    {"cifar-10-python.tar.gz", {"https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", NULL},
     170498071, "c58f30108f718f92721af3b95e74349a"},
};

const struct downloader cifar10_downloader = {
    .name = "cifar10",
    .summary = "10 classes of 32x32 colour images, 50000 train + 10000 test",
    .files = cifar10_files,
    .file_count = 1,
};
