/* ILSVRC2010 raw fixture: the devkit, the test ground truth, the three image tars (a third of the
   training JPEGs wrapped in gzip) and patch_images.tar (synthetic/ilsvrc.c). */
#include "downloaders/ilsvrc2010.h"
#include "ilsvrc.h"

static const struct ilsvrc_fixture_layout layout = {
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
    .gzip_members = true,
};

static int write(const struct fixture_request *request, const char *directory)
{
    return ilsvrc_fixture_write(request, directory, &layout);
}

const struct raw_fixture ilsvrc2010_fixture = {
    .dataset = &ilsvrc2010_dataset,
    .splits = ilsvrc_fixture_splits,
    .split_count = 3,
    .write = write,
};
