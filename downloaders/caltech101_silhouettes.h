/* CalTech 101 Silhouettes' raw files: one MATLAB file a size, 16x16 or 28x28 silhouettes. */
#ifndef FUEL_DOWNLOADERS_CALTECH101_SILHOUETTES_H
#define FUEL_DOWNLOADERS_CALTECH101_SILHOUETTES_H

#include "dataset.h"

enum caltech101_silhouettes_file { CALTECH101_SILHOUETTES_MAT, CALTECH101_SILHOUETTES_FILE_COUNT };

extern const struct dataset_file caltech101_silhouettes_16_files[CALTECH101_SILHOUETTES_FILE_COUNT];
extern const struct dataset_file caltech101_silhouettes_28_files[CALTECH101_SILHOUETTES_FILE_COUNT];

/* The splits, in Fuel's order, and the MATLAB variables of each in the file. */
enum { CALTECH101_SILHOUETTES_SPLITS = 3 };
struct caltech101_silhouettes_split {
    const char *name, *data, *labels;
};
extern const struct caltech101_silhouettes_split
    caltech101_silhouettes_splits[CALTECH101_SILHOUETTES_SPLITS];

/* The variable of the class names (a 1 x 101 cell of strings; label L named by the L-th), and
   the most a converter takes (labels are uint8 in the real files, 65535 at most in any). */
#define CALTECH101_SILHOUETTES_CLASS_NAMES "classnames"
#define CALTECH101_SILHOUETTES_MAX_CLASSES 65535
enum { CALTECH101_SILHOUETTES_CLASSES = 101 };

#endif
