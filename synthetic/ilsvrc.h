/* What the ILSVRC2012 and ILSVRC2010 raw fixtures share: a small devkit (a real MATLAB v5 struct
   array of synsets, the validation ground truth), a training tar of per-class tars, flat
   validation and test tars, each holding real JPEGs in an order that is not sorted. */
#ifndef FUEL_SYNTHETIC_ILSVRC_H
#define FUEL_SYNTHETIC_ILSVRC_H

#include "fixture.h"

#include <stdbool.h>
#include <stddef.h>

#define ILSVRC_FIXTURE_NONE ((size_t)-1)

struct ilsvrc_fixture_layout {
    size_t devkit_file;        /* indices into the dataset's files */
    size_t train_file;
    size_t valid_file;
    size_t test_file;
    size_t patch_file;         /* ILSVRC_FIXTURE_NONE: none (2012) */
    size_t test_truth_file;    /* ILSVRC_FIXTURE_NONE: none (2012) */
    const char *devkit_directory;   /* "ILSVRC2012_devkit_t12" */
    const char *valid_truth_name;   /* "ILSVRC2012_validation_ground_truth.txt" */
    const char *id_field;           /* "ILSVRC2012_ID" */
    const char *valid_prefix;       /* "ILSVRC2012_val_" */
    const char *test_prefix;        /* "ILSVRC2012_test_" */
    bool gzip_members;         /* 2010: a third of the training images wrapped in gzip */
};

/* The three splits, in the fixture's order. */
extern const char *const ilsvrc_fixture_splits[3];

/* Writes the raw files of REQUEST's dataset into DIRECTORY as LAYOUT lays them out. */
int ilsvrc_fixture_write(const struct fixture_request *request, const char *directory,
                         const struct ilsvrc_fixture_layout *layout);

#endif
