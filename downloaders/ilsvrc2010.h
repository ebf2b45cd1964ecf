/* ILSVRC2010's raw files: the public devkit and test ground truth, the image archives and the
   patch images (not public). */
#ifndef FUEL_DOWNLOADERS_ILSVRC2010_H
#define FUEL_DOWNLOADERS_ILSVRC2010_H

#include "dataset.h"

enum ilsvrc2010_file {
    ILSVRC2010_TEST_TRUTH,
    ILSVRC2010_DEVKIT,
    ILSVRC2010_TRAIN,
    ILSVRC2010_VALID,
    ILSVRC2010_TEST,
    ILSVRC2010_PATCHES,
    ILSVRC2010_FILE_COUNT
};

extern const struct dataset_file ilsvrc2010_files[ILSVRC2010_FILE_COUNT];

#endif
