/* SVHN's raw files, one a split in each format: format 1's archives of full pictures with their
   digit boxes, format 2's MATLAB files of cropped digits. */
#ifndef FUEL_DOWNLOADERS_SVHN_H
#define FUEL_DOWNLOADERS_SVHN_H

#include "dataset.h"

enum svhn_format_1_file {
    SVHN_FORMAT_1_TRAIN,
    SVHN_FORMAT_1_TEST,
    SVHN_FORMAT_1_EXTRA,
    SVHN_FORMAT_1_FILE_COUNT
};

enum svhn_format_2_file {
    SVHN_FORMAT_2_TRAIN,
    SVHN_FORMAT_2_TEST,
    SVHN_FORMAT_2_EXTRA,
    SVHN_FORMAT_2_FILE_COUNT
};

extern const struct dataset_file svhn_format_1_files[SVHN_FORMAT_1_FILE_COUNT];
extern const struct dataset_file svhn_format_2_files[SVHN_FORMAT_2_FILE_COUNT];

/* The fields of each picture's digitStruct.mat bbox in format 1's archives, in the order the
   converter and the fixture maker keep them: label, height, width, left, top. */
enum { SVHN_BOX_FIELD_COUNT = 5 };
extern const char *const svhn_box_fields[SVHN_BOX_FIELD_COUNT];

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N), both formats'. */
#define SVHN_SPLITS {"train", "test", "extra"}

/* Format 2's MATLAB variables: the images, 32x32x3xN uint8, and the labels, Nx1 double. */
#define SVHN_FORMAT_2_IMAGES "X"
#define SVHN_FORMAT_2_LABELS "y"

#endif
