/* CelebA's raw files: the attribute list and the zip of aligned and cropped faces, which both
   formats (64, aligned_cropped) convert from. */
#ifndef FUEL_DOWNLOADERS_CELEBA_H
#define FUEL_DOWNLOADERS_CELEBA_H

#include "dataset.h"

enum celeba_file { CELEBA_ATTRIBUTES, CELEBA_IMAGES, CELEBA_FILE_COUNT };

extern const struct dataset_file celeba_files[CELEBA_FILE_COUNT];

#endif
