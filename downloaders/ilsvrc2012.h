/* ILSVRC2012's raw files: the development kit and the three image archives (not public). */
#ifndef FUEL_DOWNLOADERS_ILSVRC2012_H
#define FUEL_DOWNLOADERS_ILSVRC2012_H

#include "dataset.h"

enum ilsvrc2012_file {
    ILSVRC2012_DEVKIT,
    ILSVRC2012_TRAIN,
    ILSVRC2012_VALID,
    ILSVRC2012_TEST,
    ILSVRC2012_FILE_COUNT
};

extern const struct dataset_file ilsvrc2012_files[ILSVRC2012_FILE_COUNT];

#endif
