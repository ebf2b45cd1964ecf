/* MNIST's four IDX files, from the PyTorch mirror first and Yann LeCun's site second. */
#include "downloader.h"

#define PYTORCH "https://ossci-datasets.s3.amazonaws.com/mnist/"
#define LECUN "http://yann.lecun.com/exdb/mnist/"
#define MNIST_FILE(name, size, md5) {name, {PYTORCH name, LECUN name, NULL}, size, md5}

static const struct dataset_file mnist_files[] = {
    MNIST_FILE("train-images-idx3-ubyte.gz", 9912422, "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
    MNIST_FILE("train-labels-idx1-ubyte.gz", 28881, "d53e105ee54ea40749a09fcbcd1e9432"),
    MNIST_FILE("t10k-images-idx3-ubyte.gz", 1648877, "9fb629c4189551a2d022fa330f9573f3"),
    MNIST_FILE("t10k-labels-idx1-ubyte.gz", 4542, "ec29112dd5afa0611ce80d1b7f02629c"),
};

const struct downloader mnist_downloader = {
    .name = "mnist",
    .summary = "handwritten digits, 60000 train + 10000 test 28x28 images",
    .files = mnist_files,
    .file_count = sizeof mnist_files / sizeof mnist_files[0],
};
