/* CIFAR-10: cifar-10-python.tar.gz from Alex Krizhevsky's page (six pickled batches) into features
   (N,3,32,32) and targets. */
#include "cifar_batches.h"

static const struct dataset_file files[] = {
    {.name = "cifar-10-python.tar.gz",
     .urls = {"https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", NULL},
     .size = 170498071, .checksum = "c58f30108f718f92721af3b95e74349a"},
};

static const char *const splits[] = {"train", "test"};

static const struct cifar_member members[] = {
    {"cifar-10-batches-py/data_batch_1", 0}, {"cifar-10-batches-py/data_batch_2", 0},
    {"cifar-10-batches-py/data_batch_3", 0}, {"cifar-10-batches-py/data_batch_4", 0},
    {"cifar-10-batches-py/data_batch_5", 0}, {"cifar-10-batches-py/test_batch", 1},
};

static const struct cifar_labels labels[] = {{"labels", "targets", 10}};

static const struct cifar_layout layout = {
    .splits = splits,
    .split_count = 2,
    .members = members,
    .member_count = sizeof members / sizeof members[0],
    .labels = labels,
    .label_count = 1,
};

const struct dataset cifar10_dataset = {
    .name = "cifar10",
    .summary = "10 classes of 32x32 colour images, 50000 train + 10000 test",
    .files = files,
    .file_count = 1,
    .converter = {
        .summary = "CIFAR-10 tiny images (cifar-10-python.tar.gz) into cifar10.hdf5",
        .inputs = {0},
        .input_count = 1,
        .output_file = "cifar10.hdf5",
        .convert = cifar_convert,
        .layout = &layout,
    },
};
