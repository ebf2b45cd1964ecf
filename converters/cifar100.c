/* CIFAR-100: cifar-100-python.tar.gz (train and test pickles) into features and fine/coarse labels. */
#include "cifar_batches.h"

static const struct dataset_file files[] = {
    {.name = "cifar-100-python.tar.gz",
     .urls = {"https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz", NULL},
     .size = 169001437, .checksum = "eb9058c3a382ffc7106e4002c42a8d85"},
};

static const char *const splits[] = {"train", "test"};

static const struct cifar_member members[] = {
    {"cifar-100-python/train", 0},
    {"cifar-100-python/test", 1},
};

static const struct cifar_labels labels[] = {
    {"fine_labels", "fine_labels", 100},
    {"coarse_labels", "coarse_labels", 20},
};

static const struct cifar_layout layout = {
    .splits = splits,
    .split_count = 2,
    .members = members,
    .member_count = sizeof members / sizeof members[0],
    .labels = labels,
    .label_count = sizeof labels / sizeof labels[0],
};

const struct dataset cifar100_dataset = {
    .name = "cifar100",
    .summary = "100 classes of 32x32 colour images, 50000 train + 10000 test",
    .files = files,
    .file_count = 1,
    .converter = {
        .summary = "CIFAR-100 tiny images (cifar-100-python.tar.gz) into cifar100.hdf5",
        .inputs = {0},
        .input_count = 1,
        .output_file = "cifar100.hdf5",
        .convert = cifar_convert,
        .layout = &layout,
    },
};
