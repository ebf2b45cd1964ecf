/* CalTech 101 Silhouettes' split1 MATLAB files from Benjamin Marlin's UMass page, with the MD5s
   DeepMind's dm_nevis publishes (no sizes are). */
#include "caltech101_silhouettes.h"

#include "datasets.h"

#define MARLIN "https://people.cs.umass.edu/~marlin/data/"
#define SILHOUETTES_FILE(file, md5) {.name = file, .urls = {MARLIN file, NULL}, .checksum = md5}

const struct dataset_file caltech101_silhouettes_16_files[CALTECH101_SILHOUETTES_FILE_COUNT] = {
    [CALTECH101_SILHOUETTES_MAT] = SILHOUETTES_FILE("caltech101_silhouettes_16_split1.mat",
                                                    "3baf9e2c023aa4a187e1d1b92b5a734a"),
};

const struct dataset_file caltech101_silhouettes_28_files[CALTECH101_SILHOUETTES_FILE_COUNT] = {
    [CALTECH101_SILHOUETTES_MAT] = SILHOUETTES_FILE("caltech101_silhouettes_28_split1.mat",
                                                    "4483e9c14b188fd09937f9ea6f9ea777"),
};

const struct caltech101_silhouettes_split
    caltech101_silhouettes_splits[CALTECH101_SILHOUETTES_SPLITS] = {
        {"train", "train_data", "train_labels"},
        {"valid", "val_data", "val_labels"},
        {"test", "test_data", "test_labels"},
};

const struct dataset caltech101_silhouettes_16_dataset = {
    .name = "caltech101_silhouettes",
    .variant = "16",
    .summary = "CalTech 101 object silhouettes, 16x16, 4082 train + 2257 valid + 2302 test",
    DATASET_FILES(caltech101_silhouettes_16_files),
    .converter = &caltech101_silhouettes_16_converter,
};

const struct dataset caltech101_silhouettes_28_dataset = {
    .name = "caltech101_silhouettes",
    .variant = "28",
    .summary = "CalTech 101 object silhouettes, 28x28, 4100 train + 2264 valid + 2307 test",
    DATASET_FILES(caltech101_silhouettes_28_files),
    .converter = &caltech101_silhouettes_28_converter,
};
