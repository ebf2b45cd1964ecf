/* CIFAR-10's cifar-10-python.tar.gz from Alex Krizhevsky's page (its md5 from there, its sha256 the
   one Keras and torchvision check the download against). */
#include "cifar10.h"

#include "datasets.h"

const struct dataset_file cifar10_files[CIFAR10_FILE_COUNT] = {
    [CIFAR10_ARCHIVE] = {.name = "cifar-10-python.tar.gz",
                         .urls = {"https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz", NULL},
                         .size = 170498071, .checksum = "c58f30108f718f92721af3b95e74349a",
                         .sha256 =
                             "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"},
};

const char *const cifar10_members[CIFAR10_BATCHES] = {
    CIFAR10_FOLDER "/data_batch_1", CIFAR10_FOLDER "/data_batch_2", CIFAR10_FOLDER "/data_batch_3",
    CIFAR10_FOLDER "/data_batch_4", CIFAR10_FOLDER "/data_batch_5", CIFAR10_FOLDER "/test_batch",
};

const struct dataset cifar10_dataset = {
    .name = "cifar10",
    .summary = "10 classes of 32x32 colour images, 50000 train + 10000 test",
    DATASET_FILES(cifar10_files),
    .converter = &cifar10_converter,
};

const char *const cifar10_label_names[10] = {"airplane", "automobile", "bird", "cat", "deer",
                                              "dog", "frog", "horse", "ship", "truck"};
