/* ILSVRC2012 raw fixture: ILSVRC2012_devkit_t12.tar.gz and the three image tars (synthetic/ilsvrc.c). */
#include "downloaders/ilsvrc2012.h"
#include "ilsvrc.h"

static const struct ilsvrc_fixture_layout layout = {
    .devkit_file = ILSVRC2012_DEVKIT,
    .train_file = ILSVRC2012_TRAIN,
    .valid_file = ILSVRC2012_VALID,
    .test_file = ILSVRC2012_TEST,
    .patch_file = ILSVRC_FIXTURE_NONE,
    .test_truth_file = ILSVRC_FIXTURE_NONE,
    .devkit_directory = "ILSVRC2012_devkit_t12",
    .valid_truth_name = "ILSVRC2012_validation_ground_truth.txt",
    .id_field = "ILSVRC2012_ID",
    .valid_prefix = "ILSVRC2012_val_",
    .test_prefix = "ILSVRC2012_test_",
};

static int write(const struct fixture_request *request, const char *directory)
{
    return ilsvrc_fixture_write(request, directory, &layout);
}

const struct raw_fixture ilsvrc2012_fixture = {
    .dataset = &ilsvrc2012_dataset,
    .splits = ilsvrc_fixture_splits,
    .split_count = 3,
    .write = write,
};
