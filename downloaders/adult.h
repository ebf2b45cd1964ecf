/* Adult's raw files: UCI's adult.data (training rows) and adult.test (test rows). */
#ifndef FUEL_DOWNLOADERS_ADULT_H
#define FUEL_DOWNLOADERS_ADULT_H

#include "dataset.h"

enum adult_file { ADULT_TRAIN, ADULT_TEST, ADULT_FILE_COUNT };

extern const struct dataset_file adult_files[ADULT_FILE_COUNT];

/* The two labels of the last column (adult.test ends each with a '.'). */
#define ADULT_ABOVE ">50K"
#define ADULT_BELOW "<=50K"

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N). */
#define ADULT_SPLITS {"train", "test"}

#endif
