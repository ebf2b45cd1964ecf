/* CIFAR-100's raw file: one archive of pickled batches. */
#ifndef FUEL_DOWNLOADERS_CIFAR100_H
#define FUEL_DOWNLOADERS_CIFAR100_H

#include "dataset.h"

enum cifar100_file { CIFAR100_ARCHIVE, CIFAR100_FILE_COUNT };

extern const struct dataset_file cifar100_files[CIFAR100_FILE_COUNT];

/* The archive's folder and the batches in it, read by the converter and written by the fixture
   maker: FOLDER/train, the training split, and FOLDER/test, the test split. */
#define CIFAR100_FOLDER "cifar-100-python"
enum { CIFAR100_BATCHES = 2 };
extern const char *const cifar100_members[CIFAR100_BATCHES];
/* The keys of each batch's dict holding its two labellings (the pixels' is CIFAR_DATA). */
#define CIFAR100_FINE_LABELS "fine_labels"
#define CIFAR100_COARSE_LABELS "coarse_labels"

/* The classes in the order of meta's fine_label_names and coarse_label_names (the card and the
   fixture maker). */
extern const char *const cifar100_fine_label_names[100];
extern const char *const cifar100_coarse_label_names[20];

#endif
