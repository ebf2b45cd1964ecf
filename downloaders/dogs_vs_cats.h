/* Dogs vs Cats' raw files: Kaggle's train.zip and test1.zip under Fuel's names. */
#ifndef FUEL_DOWNLOADERS_DOGS_VS_CATS_H
#define FUEL_DOWNLOADERS_DOGS_VS_CATS_H

#include "dataset.h"

enum dogs_vs_cats_file { DOGS_VS_CATS_TRAIN, DOGS_VS_CATS_TEST, DOGS_VS_CATS_FILE_COUNT };

extern const struct dataset_file dogs_vs_cats_files[DOGS_VS_CATS_FILE_COUNT];

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N). */
#define DOGS_VS_CATS_SPLITS {"train", "test"}

#endif
