/* fuel duplicates' engine: the examples of equal values of one source within each split, across
   the splits of a file and across files, with their labels and class names. */
#ifndef FUEL_DUPLICATE_SEARCH_H
#define FUEL_DUPLICATE_SEARCH_H

#include "common/base/stage_listener.h"
#include "common/h5py/class_names.h"
#include "common/h5py/h5py_reader.h"
#include "duplicate_groups.h"
#include "example_digests.h"

#include <stdbool.h>
#include <stddef.h>

/* The most files compared at once. */
#define DUPLICATES_MAX_FILES 64

struct duplicates_request {
    struct h5py_file *const *files;
    size_t file_count;
    const char *source; /* NULL: features, else encoded_images, else the first file's first */
    const char *labels; /* NULL: targets where the files have it; "": none */
    const struct stage_listener *listener; /* NULL: no progress */
    bool near;          /* images whose perceptual hashes are within THRESHOLD bits */
    unsigned threshold;
    unsigned threads;   /* near: the threads decoding and hashing (0: the online CPUs) */
    size_t memory_examples; /* digests held before a sorted run is spilled; 0: the default */
};

struct duplicates_result {
    const char *source;
    const char *labels; /* NULL when the members carry no labels */
    uint64_t examples;  /* examples compared, in all files */
    struct example_digests digests; /* near: the groups' members alone, with their hashes */
    struct duplicate_groups groups;
    struct class_names names[DUPLICATES_MAX_FILES]; /* each file's names of its labels */
};

/* Finds the groups. EXIT_USAGE when a file lacks the source or the labels source asked for;
   EXIT_CORRUPT_INPUT when the files' sources differ in type or example shape (their examples can
   never be equal) or cannot be read; near, EXIT_USAGE when the source is not of images and
   EXIT_CORRUPT_INPUT when one does not decode. */
int duplicates_find(const struct duplicates_request *request, struct duplicates_result *result);

void duplicates_result_free(struct duplicates_result *result, size_t file_count);

#endif
