/* CIFAR-100's converter: cifar-100-python.tar.gz (downloaders/cifar100.c; train and test pickles)
   into features and fine/coarse labels. */
#include "cifar_batches.h"
#include "downloaders/cifar10.h"
#include "downloaders/cifar100.h"

static const char *const splits[] = CIFAR_SPLITS;

static const int member_splits[CIFAR100_BATCHES] = {0, 1};

static const uint64_t member_examples[CIFAR100_BATCHES] = {50000, 10000};

static const struct cifar_labels labels[] = {
    {CIFAR100_FINE_LABELS, "fine_labels", 100},
    {CIFAR100_COARSE_LABELS, "coarse_labels", 20},
};

static const struct cifar_layout layout = {
    .archive = CIFAR100_ARCHIVE,
    .splits = splits,
    .split_count = 2,
    .members = cifar100_members,
    .member_splits = member_splits,
    .member_examples = member_examples,
    .member_count = CIFAR100_BATCHES,
    .labels = labels,
    .label_count = sizeof labels / sizeof labels[0],
};

const struct converter cifar100_converter = {
    .summary = "CIFAR-100 tiny images (cifar-100-python.tar.gz) into cifar100.hdf5",
    .inputs = {CIFAR100_ARCHIVE},
    .input_count = CIFAR100_FILE_COUNT,
    .output_file = "cifar100.hdf5",
    .convert = cifar_convert,
    .layout = &layout,
};
