/* Adult's raw files: UCI's adult.data (training rows) and adult.test (test rows). */
#ifndef FUEL_DOWNLOADERS_ADULT_H
#define FUEL_DOWNLOADERS_ADULT_H

#include "dataset.h"

enum adult_file { ADULT_TRAIN, ADULT_TEST, ADULT_FILE_COUNT };

extern const struct dataset_file adult_files[ADULT_FILE_COUNT];

#endif
