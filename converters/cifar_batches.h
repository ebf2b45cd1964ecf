/* What CIFAR-10 and CIFAR-100 share: pickled batches streamed out of a tar.gz into sources. */
#ifndef FUEL_CIFAR_BATCHES_H
#define FUEL_CIFAR_BATCHES_H

#include "converter.h"
#include "downloaders/dataset.h"

#include <stdint.h>

#define CIFAR_MAX_MEMBERS 8
#define CIFAR_MAX_LABELS 2

struct cifar_labels {
    const char *key;    /* in the pickled dict, e.g. "fine_labels" */
    const char *source; /* in the output, e.g. "fine_labels" or "targets" */
    unsigned limit;     /* every label is below it */
};

struct cifar_layout {
    size_t archive; /* the archive's index in the dataset's files: CIFAR10_ARCHIVE */
    const char *const *splits;
    int split_count;
    /* In output order, the paths inside the archive (the downloader's), each with its split (an
       index into SPLITS); the members of one split are listed together. */
    const char *const *members;
    const int *member_splits;
    const uint64_t *member_examples; /* each member's images in the published archive */
    size_t member_count;
    const struct cifar_labels *labels;
    size_t label_count;
};

/* Reads the converter's one input, the archive, and fills WRITER: features (N,3,32,32) uint8,
   one (N,1) uint8 source per label kind, one split per split of the converter's layout (a
   struct cifar_layout). */
int cifar_convert(const struct converter_arguments *arguments, struct h5py_writer *writer);

#endif
