/* MNIST's four IDX files (PyTorch's mirror, then Yann LeCun's page) and Fashion-MNIST's (Zalando's
   site), with their sizes, MD5s and the sha256 of their decompressed content. */
#include "mnist.h"

#include "datasets.h"

#define PYTORCH "https://ossci-datasets.s3.amazonaws.com/mnist/"
#define LECUN "http://yann.lecun.com/exdb/mnist/"
#define MNIST_FILE(file, bytes, md5, inflated_bytes, inflated_sha256)                            \
    {.name = file, .urls = {PYTORCH file, LECUN file, NULL}, .size = bytes, .checksum = md5,      \
     .content_size = inflated_bytes, .content_sha256 = inflated_sha256}

/* The contents were hashed from copies whose md5 is the published one; train-images' is not
   known here (no copy at hand), so only its compressed bytes verify it. */
const struct dataset_file mnist_files[MNIST_FILE_COUNT] = {
    [MNIST_TRAIN_IMAGES] = MNIST_FILE("train-images-idx3-ubyte.gz", 9912422,
                                      "f68b3c2dcbeaaa9fbdd348bbdeb94873", 0, NULL),
    [MNIST_TRAIN_LABELS] = MNIST_FILE(
        "train-labels-idx1-ubyte.gz", 28881, "d53e105ee54ea40749a09fcbcd1e9432", 60008,
        "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5"),
    [MNIST_TEST_IMAGES] = MNIST_FILE(
        "t10k-images-idx3-ubyte.gz", 1648877, "9fb629c4189551a2d022fa330f9573f3", 7840016,
        "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"),
    [MNIST_TEST_LABELS] = MNIST_FILE(
        "t10k-labels-idx1-ubyte.gz", 4542, "ec29112dd5afa0611ce80d1b7f02629c", 10008,
        "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"),
};

#define ZALANDO "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"
#define FASHION_FILE(file, bytes, md5, inflated_bytes, inflated_sha256, debian_bytes,           \
                     debian_sha256)                                                              \
    {.name = file, .urls = {ZALANDO file, NULL}, .size = bytes, .checksum = md5,                 \
     .content_size = inflated_bytes, .content_sha256 = inflated_sha256,                          \
     .repacked_size = debian_bytes, .repacked_sha256 = debian_sha256}

/* The contents were hashed from Debian's dataset-fashion-mnist files: the publisher's deflate
   streams with the file name dropped from the gzip header, so 23 or 24 bytes shorter. Those files
   are the copies most machines have, and each inflates to the published content (zcat | sha256sum
   of every one gave the content_sha256 here), so their own sha256, which provenance takes anyway,
   is recorded as known to hold it: a conversion then need not hash 55 MB of content to say so. */
const struct dataset_file fashion_mnist_files[MNIST_FILE_COUNT] = {
    [MNIST_TRAIN_IMAGES] = FASHION_FILE(
        "train-images-idx3-ubyte.gz", 26421880, "8d4fb7e6c68d591d4c3dfef9ec88bf0d", 47040016,
        "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888", 26421856,
        "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7"),
    [MNIST_TRAIN_LABELS] = FASHION_FILE(
        "train-labels-idx1-ubyte.gz", 29515, "25c81989df183df01b3e8a0aad5dffbe", 60008,
        "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9", 29491,
        "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056"),
    [MNIST_TEST_IMAGES] = FASHION_FILE(
        "t10k-images-idx3-ubyte.gz", 4422102, "bef4ecab320f06d8554ea6380940ec79", 7840016,
        "5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b", 4422079,
        "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa"),
    [MNIST_TEST_LABELS] = FASHION_FILE(
        "t10k-labels-idx1-ubyte.gz", 5148, "bb300cfdad3c16e7a12a480ee83cd310", 10008,
        "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34", 5125,
        "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05"),
};

const struct dataset fashion_mnist_dataset = {
    .name = "fashion_mnist",
    .summary = "Zalando's article images, 60000 train + 10000 test 28x28, MNIST's layout",
    DATASET_FILES(fashion_mnist_files),
    .converter = &fashion_mnist_converter,
};

const struct dataset mnist_dataset = {
    .name = "mnist",
    .summary = "handwritten digits, 60000 train + 10000 test 28x28 images",
    DATASET_FILES(mnist_files),
    .converter = &mnist_converter,
};
