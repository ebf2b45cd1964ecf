/* CIFAR-10's raw file: one archive of pickled batches. */
#ifndef FUEL_DOWNLOADERS_CIFAR10_H
#define FUEL_DOWNLOADERS_CIFAR10_H

#include "dataset.h"

enum cifar10_file { CIFAR10_ARCHIVE, CIFAR10_FILE_COUNT };

extern const struct dataset_file cifar10_files[CIFAR10_FILE_COUNT];

/* The archive's folder and the batches in it, read by the converter and written by the fixture
   maker: FOLDER/data_batch_1 to 5, the training split, then FOLDER/test_batch, the test split. */
#define CIFAR10_FOLDER "cifar-10-batches-py"
enum { CIFAR10_TRAIN_BATCHES = 5, CIFAR10_BATCHES = 6 };
extern const char *const cifar10_members[CIFAR10_BATCHES];
/* The keys of each batch's dict: the pixels (both CIFARs'), and CIFAR-10's labels. */
#define CIFAR_DATA "data"
#define CIFAR10_LABELS "labels"

/* The classes in the order of batches.meta's label_names (the card and the fixture maker). */
extern const char *const cifar10_label_names[10];

/* The splits of the converted file, in its order: the converter's and the fixture maker's
   (-n SPLIT=N), CIFAR-100's too. */
#define CIFAR_SPLITS {"train", "test"}

#endif
