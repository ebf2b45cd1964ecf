/* Iris's iris.data from the UCI repository; no size or checksum is published. */
#include "iris.h"

const struct dataset_file iris_files[IRIS_FILE_COUNT] = {
    [IRIS_DATA] = {.name = "iris.data",
                   .urls = {"https://archive.ics.uci.edu/ml/machine-learning-databases/iris/"
                            "iris.data",
                            NULL}},
};
