/* CIFAR-10: cifar-10-python.tar.gz (six pickled batches) into features (N,3,32,32) and targets. */
#include "cifar_batches.h"

static const char archive[] = "cifar-10-python.tar.gz";
static const char *const inputs[] = {archive};
static const char *const splits[] = {"train", "test"};

static const struct cifar_member members[] = {
    {"cifar-10-batches-py/data_batch_1", 0}, {"cifar-10-batches-py/data_batch_2", 0},
    {"cifar-10-batches-py/data_batch_3", 0}, {"cifar-10-batches-py/data_batch_4", 0},
    {"cifar-10-batches-py/data_batch_5", 0}, {"cifar-10-batches-py/test_batch", 1},
};

static const struct cifar_labels labels[] = {{"labels", "targets", 10}};

static const struct cifar_layout layout = {
    .archive = archive,
    .splits = splits,
    .split_count = 2,
    .members = members,
    .member_count = sizeof members / sizeof members[0],
    .labels = labels,
    .label_count = 1,
};

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    return cifar_convert(&layout, arguments, writer);
}

const struct converter cifar10_converter = {
    .name = "cifar10",
    .summary = "CIFAR-10 tiny images (cifar-10-python.tar.gz) into cifar10.hdf5",
    .input_names = inputs,
    .input_count = 1,
    .output_file = "cifar10.hdf5",
    .convert = convert,
};
