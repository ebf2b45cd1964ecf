/* CIFAR-10's converter: cifar-10-python.tar.gz (downloaders/cifar10.c; six pickled batches) into
   features (N,3,32,32) and targets. */
#include "cifar_batches.h"
#include "downloaders/cifar10.h"

static const char *const splits[] = {"train", "test"};

static const struct cifar_member members[] = {
    {"cifar-10-batches-py/data_batch_1", 0}, {"cifar-10-batches-py/data_batch_2", 0},
    {"cifar-10-batches-py/data_batch_3", 0}, {"cifar-10-batches-py/data_batch_4", 0},
    {"cifar-10-batches-py/data_batch_5", 0}, {"cifar-10-batches-py/test_batch", 1},
};

static const struct cifar_labels labels[] = {{"labels", "targets", 10}};

static const struct cifar_layout layout = {
    .archive = CIFAR10_ARCHIVE,
    .splits = splits,
    .split_count = 2,
    .members = members,
    .member_count = sizeof members / sizeof members[0],
    .labels = labels,
    .label_count = 1,
};

const struct converter cifar10_converter = {
    .summary = "CIFAR-10 tiny images (cifar-10-python.tar.gz) into cifar10.hdf5",
    .inputs = {CIFAR10_ARCHIVE},
    .input_count = CIFAR10_FILE_COUNT,
    .output_file = "cifar10.hdf5",
    .convert = cifar_convert,
    .layout = &layout,
};
