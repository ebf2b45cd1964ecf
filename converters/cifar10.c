/* CIFAR-10's converter: cifar-10-python.tar.gz (downloaders/cifar10.c; six pickled batches) into
   features (N,3,32,32) and targets. */
#include "cifar_batches.h"
#include "downloaders/cifar10.h"

static const char *const splits[] = CIFAR_SPLITS;

static const int member_splits[CIFAR10_BATCHES] = {0, 0, 0, 0, 0, 1};

static const uint64_t member_examples[CIFAR10_BATCHES] = {10000, 10000, 10000, 10000, 10000, 10000};

static const struct cifar_labels labels[] = {{CIFAR10_LABELS, "targets", 10}};

static const struct cifar_layout layout = {
    .archive = CIFAR10_ARCHIVE,
    .splits = splits,
    .split_count = 2,
    .members = cifar10_members,
    .member_splits = member_splits,
    .member_examples = member_examples,
    .member_count = CIFAR10_BATCHES,
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
