/* MNIST's four IDX files (PyTorch's mirror, then Yann LeCun's page) and Fashion-MNIST's (Zalando's
   site), with their sizes and MD5s. */
#include "mnist.h"

#define PYTORCH "https://ossci-datasets.s3.amazonaws.com/mnist/"
#define LECUN "http://yann.lecun.com/exdb/mnist/"
#define MNIST_FILE(name, size, md5) {name, {PYTORCH name, LECUN name, NULL}, size, md5}

const struct dataset_file mnist_files[MNIST_FILE_COUNT] = {
    [MNIST_TRAIN_IMAGES] = MNIST_FILE("train-images-idx3-ubyte.gz", 9912422,
                                      "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
    [MNIST_TRAIN_LABELS] = MNIST_FILE("train-labels-idx1-ubyte.gz", 28881,
                                      "d53e105ee54ea40749a09fcbcd1e9432"),
    [MNIST_TEST_IMAGES] = MNIST_FILE("t10k-images-idx3-ubyte.gz", 1648877,
                                     "9fb629c4189551a2d022fa330f9573f3"),
    [MNIST_TEST_LABELS] = MNIST_FILE("t10k-labels-idx1-ubyte.gz", 4542,
                                     "ec29112dd5afa0611ce80d1b7f02629c"),
};

#define ZALANDO "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"
#define FASHION_FILE(name, size, md5) {name, {ZALANDO name, NULL}, size, md5}

const struct dataset_file fashion_mnist_files[MNIST_FILE_COUNT] = {
    [MNIST_TRAIN_IMAGES] = FASHION_FILE("train-images-idx3-ubyte.gz", 26421880,
                                        "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
    [MNIST_TRAIN_LABELS] = FASHION_FILE("train-labels-idx1-ubyte.gz", 29515,
                                        "25c81989df183df01b3e8a0aad5dffbe"),
    [MNIST_TEST_IMAGES] = FASHION_FILE("t10k-images-idx3-ubyte.gz", 4422102,
                                       "bef4ecab320f06d8554ea6380940ec79"),
    [MNIST_TEST_LABELS] = FASHION_FILE("t10k-labels-idx1-ubyte.gz", 5148,
                                       "bb300cfdad3c16e7a12a480ee83cd310"),
};
