/* Dogs vs Cats from the Dropbox copies Fuel's downloader names (Kaggle itself needs a login); no
   size or checksum is published. */
#include "dogs_vs_cats.h"

#include "datasets.h"

const struct dataset_file dogs_vs_cats_files[DOGS_VS_CATS_FILE_COUNT] = {
    [DOGS_VS_CATS_TRAIN] = {.name = "dogs_vs_cats.train.zip",
                            .urls = {"https://www.dropbox.com/s/s3u30quvpxqdbz6/train.zip?dl=1",
                                     NULL}},
    [DOGS_VS_CATS_TEST] = {.name = "dogs_vs_cats.test1.zip",
                           .urls = {"https://www.dropbox.com/s/21rwu6drnplsbkb/test1.zip?dl=1",
                                    NULL}},
};

const struct dataset dogs_vs_cats_dataset = {
    .name = "dogs_vs_cats",
    .summary = "Kaggle's photos of cats and dogs, 25000 labelled + 12500 test, sizes vary",
    DATASET_FILES(dogs_vs_cats_files),
    .converter = &dogs_vs_cats_converter,
};
