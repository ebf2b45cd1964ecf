/* Iris's iris.data from the UCI repository; no size or checksum is published. */
#include "iris.h"

#include "datasets.h"

const struct dataset_file iris_files[IRIS_FILE_COUNT] = {
    [IRIS_DATA] = {.name = "iris.data",
                   .urls = {"https://archive.ics.uci.edu/ml/machine-learning-databases/iris/"
                            "iris.data",
                            NULL}},
};

const char *const iris_species[IRIS_SPECIES] = {"Iris-setosa", "Iris-versicolor", "Iris-virginica"};

const struct dataset iris_dataset = {
    .name = "iris",
    .summary = "Fisher's 150 iris flowers, 4 measurements and a species each",
    DATASET_FILES(iris_files),
    .converter = &iris_converter,
};
