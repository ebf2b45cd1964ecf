/* ILSVRC2012's files, as Fuel's downloader names them: none is public (image-net.org asks for a
   registration), so they come from `--url-prefix` or are put in place by hand. The md5s are
   those torchvision publishes (no one publishes the test archive's), the sha256s those its
   datasets prototype checks. The sizes of the train and validation archives are image-net.org's
   Content-Length as wget logs it and as `ls -l` lists the downloaded files in public READMEs of
   ImageNet training code; the devkit's and the test archive's are not stated anywhere we could
   check. */
#include "ilsvrc2012.h"

#include "datasets.h"
#include "ilsvrc.h"

const struct dataset_file ilsvrc2012_files[ILSVRC2012_FILE_COUNT] = {
    [ILSVRC2012_DEVKIT] = {.name = "ILSVRC2012_devkit_t12.tar.gz",
                           .checksum = "fa75699e90414af021442c21a62c3abf",
                           .sha256 =
                               "b59243268c0d266621fd587d2018f69e906fb22875aca0e295b48cafaa927953"},
    [ILSVRC2012_TRAIN] = {.name = "ILSVRC2012_img_train.tar",
                          .size = 147897477120,
                          .checksum = "1d675b47d978889d74fa0da5fadfb00e",
                          .sha256 =
                              "b08200a27a8e34218a0e58fde36b0fe8f73bc377f4acea2d91602057c3ca45bb"},
    [ILSVRC2012_VALID] = {.name = "ILSVRC2012_img_val.tar",
                          .size = 6744924160,
                          .checksum = "29b22e2961454d5413ddabcf34fc5622",
                          .sha256 =
                              "c7e06a6c0baccf06d8dbeb6577d71efff84673a5dbdd50633ab44f8ea0456ae0"},
    [ILSVRC2012_TEST] = {.name = "ILSVRC2012_img_test.tar"},
};

const struct dataset ilsvrc2012_dataset = {
    .name = "ilsvrc2012",
    .summary = "ImageNet 2012: 1,000 classes, 1281167 train + 50000 valid + 100000 test JPEGs "
               "(not public)",
    DATASET_FILES(ilsvrc2012_files),
    .converter = &ilsvrc2012_converter,
};

const struct ilsvrc_layout ilsvrc2012_layout = {
    .devkit_file = ILSVRC2012_DEVKIT,
    .train_file = ILSVRC2012_TRAIN,
    .valid_file = ILSVRC2012_VALID,
    .test_file = ILSVRC2012_TEST,
    .patch_file = ILSVRC_NONE,
    .test_truth_file = ILSVRC_NONE,
    .devkit_directory = "ILSVRC2012_devkit_t12",
    .valid_truth_name = "ILSVRC2012_validation_ground_truth.txt",
    .id_field = "ILSVRC2012_ID",
    .valid_prefix = "ILSVRC2012_val_",
    .test_prefix = "ILSVRC2012_test_",
};
