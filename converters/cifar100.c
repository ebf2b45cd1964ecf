/* CIFAR-100: cifar-100-python.tar.gz (train and test pickles) into features and fine/coarse labels. */
#include "cifar_batches.h"

static const char archive[] = "cifar-100-python.tar.gz";
static const char *const inputs[] = {archive};
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
    .archive = archive,
    .splits = splits,
    .split_count = 2,
    .members = members,
    .member_count = sizeof members / sizeof members[0],
    .labels = labels,
    .label_count = sizeof labels / sizeof labels[0],
};

static int convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    return cifar_convert(&layout, arguments, writer);
}

const struct converter cifar100_converter = {
    .name = "cifar100",
    .summary = "CIFAR-100 tiny images (cifar-100-python.tar.gz) into cifar100.hdf5",
    .input_names = inputs,
    .input_count = 1,
    .output_file = "cifar100.hdf5",
    .convert = convert,
};
