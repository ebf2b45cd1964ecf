/* CelebA's raw files: the attribute list and the zip of aligned and cropped faces, which both
   formats (64, aligned_cropped) convert from. */
#ifndef FUEL_DOWNLOADERS_CELEBA_H
#define FUEL_DOWNLOADERS_CELEBA_H

#include "dataset.h"

#include <inttypes.h>

enum celeba_file { CELEBA_ATTRIBUTES, CELEBA_IMAGES, CELEBA_FILE_COUNT };

extern const struct dataset_file celeba_files[CELEBA_FILE_COUNT];

/* The zip's folder of faces, and each face's name in it and in the attribute list (its number,
   from 1, a uint64_t), which the converter reads and the fixture maker writes. */
#define CELEBA_FACES_FOLDER "img_align_celeba/"
#define CELEBA_FACE_NAME "%06" PRIu64 ".jpg"

#endif
