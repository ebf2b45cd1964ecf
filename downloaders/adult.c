/* Adult's adult.data and adult.test from the UCI repository, with the sizes and MD5s catboost
   publishes for them. */
#include "adult.h"

#include "datasets.h"

#define UCI "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/"

const struct dataset_file adult_files[ADULT_FILE_COUNT] = {
    [ADULT_TRAIN] = {.name = "adult.data", .urls = {UCI "adult.data", NULL}, .size = 3974305,
                     .checksum = "5d7c39d7b8804f071cdd1f2a7c460872"},
    [ADULT_TEST] = {.name = "adult.test", .urls = {UCI "adult.test", NULL}, .size = 2003153,
                    .checksum = "35238206dfdf7f1fe215bbb874adecdc"},
};

const struct dataset adult_dataset = {
    .name = "adult",
    .summary = "UCI census income rows, >50K or not, 30162 train + 15060 test",
    DATASET_FILES(adult_files),
    .converter = &adult_converter,
};
