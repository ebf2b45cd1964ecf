/* What ILSVRC2010's and ILSVRC2012's raw files hold and where, read by their converters and
   written by their fixture makers: each file's role, the devkit's members, the synsets' id field
   and the names of the validation and test JPEGs. */
#ifndef FUEL_DOWNLOADERS_ILSVRC_H
#define FUEL_DOWNLOADERS_ILSVRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ILSVRC_NONE SIZE_MAX

/* The devkit's members, DEVKIT_DIRECTORY/data/meta.mat and DEVKIT_DIRECTORY/data/VALID_TRUTH_NAME:
   snprintf(member, size, ILSVRC_DEVKIT_MEMBER, layout->devkit_directory, name). */
#define ILSVRC_DEVKIT_DATA "data"
#define ILSVRC_DEVKIT_MEMBER "%s/" ILSVRC_DEVKIT_DATA "/%s"
#define ILSVRC_META_NAME "meta.mat"
/* meta.mat's struct array of synsets and the fields of each that the converter reads beside the
   layout's id_field; the fixture maker writes them among the others. */
#define ILSVRC_SYNSETS "synsets"
#define ILSVRC_WNID "WNID"
#define ILSVRC_TRAIN_IMAGES "num_train_images"

struct ilsvrc_layout {
    size_t devkit_file;       /* indices into the dataset's files */
    size_t train_file;
    size_t valid_file;
    size_t test_file;
    size_t patch_file;        /* 2010's patch_images.tar; ILSVRC_NONE for 2012 */
    size_t test_truth_file;   /* 2010's test ground truth; ILSVRC_NONE: the test split has no
                                 targets (2012) */
    const char *devkit_directory; /* "ILSVRC2012_devkit_t12" */
    const char *valid_truth_name; /* "ILSVRC2012_validation_ground_truth.txt" */
    const char *id_field;         /* "ILSVRC2012_ID" */
    const char *valid_prefix;     /* the validation JPEGs' names: "ILSVRC2012_val_" 00000001.JPEG */
    const char *test_prefix;      /* "ILSVRC2012_test_" */
    bool cost_matrix;             /* 2010: meta.mat holds cost_matrix beside synsets */
};

extern const struct ilsvrc_layout ilsvrc2010_layout, ilsvrc2012_layout;

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N), both years'. */
#define ILSVRC_SPLITS {"train", "valid", "test"}

#endif
