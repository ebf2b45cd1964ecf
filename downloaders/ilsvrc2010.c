/* ILSVRC2010's files, in Fuel's order (the public files first): the test ground truth and the
   devkit from image-net.org's challenge page, the image archives and the patch images only from
   `--url-prefix` (image-net.org asks for a registration) or put in place by hand. No one
   publishes their sizes or checksums. */
#include "ilsvrc2010.h"

#include "datasets.h"
#include "ilsvrc.h"

#define CHALLENGE "http://www.image-net.org/challenges/LSVRC/2010/"

const struct dataset_file ilsvrc2010_files[ILSVRC2010_FILE_COUNT] = {
    [ILSVRC2010_TEST_TRUTH] = {.name = "ILSVRC2010_test_ground_truth.txt",
                               .urls = {CHALLENGE "ILSVRC2010_test_ground_truth.txt", NULL}},
    [ILSVRC2010_DEVKIT] = {.name = "ILSVRC2010_devkit-1.0.tar.gz",
                           .urls = {CHALLENGE "download/ILSVRC2010_devkit-1.0.tar.gz", NULL}},
    [ILSVRC2010_TRAIN] = {.name = "ILSVRC2010_images_train.tar"},
    [ILSVRC2010_VALID] = {.name = "ILSVRC2010_images_val.tar"},
    [ILSVRC2010_TEST] = {.name = "ILSVRC2010_images_test.tar"},
    [ILSVRC2010_PATCHES] = {.name = "patch_images.tar"},
};

const struct dataset ilsvrc2010_dataset = {
    .name = "ilsvrc2010",
    .summary = "ImageNet 2010: 1,000 classes, 1261406 train + 50000 valid + 150000 test JPEGs "
               "(images not public)",
    DATASET_FILES(ilsvrc2010_files),
    .converter = &ilsvrc2010_converter,
};

const struct ilsvrc_layout ilsvrc2010_layout = {
    .devkit_file = ILSVRC2010_DEVKIT,
    .train_file = ILSVRC2010_TRAIN,
    .valid_file = ILSVRC2010_VALID,
    .test_file = ILSVRC2010_TEST,
    .patch_file = ILSVRC2010_PATCHES,
    .test_truth_file = ILSVRC2010_TEST_TRUTH,
    .devkit_directory = "devkit-1.0",
    .valid_truth_name = "ILSVRC2010_validation_ground_truth.txt",
    .id_field = "ILSVRC2010_ID",
    .valid_prefix = "ILSVRC2010_val_",
    .test_prefix = "ILSVRC2010_test_",
    .cost_matrix = true,
};
