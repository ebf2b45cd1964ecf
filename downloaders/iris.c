/* Fisher's iris data from the UCI repository; no size or checksum is published. */
#include "downloader.h"

static const struct dataset_file iris_files[] = {
    {"iris.data",
     {"https://archive.ics.uci.edu/ml/machine-learning-databases/iris/iris.data", NULL}, 0, NULL},
};

const struct downloader iris_downloader = {
    .name = "iris",
    .summary = "Fisher's 150 iris flowers, 4 measurements and a species each",
    .files = iris_files,
    .file_count = 1,
};
