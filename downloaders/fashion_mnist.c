/* Fashion-MNIST's four IDX files, named as MNIST's, from Zalando's S3 website. */
#include "downloader.h"

#define ZALANDO "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"
#define FASHION_FILE(name, size, md5) {name, {ZALANDO name, NULL}, size, md5}

static const struct dataset_file fashion_mnist_files[] = {
    FASHION_FILE("train-images-idx3-ubyte.gz", 26421880, "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
    FASHION_FILE("train-labels-idx1-ubyte.gz", 29515, "25c81989df183df01b3e8a0aad5dffbe"),
    FASHION_FILE("t10k-images-idx3-ubyte.gz", 4422102, "bef4ecab320f06d8554ea6380940ec79"),
    FASHION_FILE("t10k-labels-idx1-ubyte.gz", 5148, "bb300cfdad3c16e7a12a480ee83cd310"),
};

const struct downloader fashion_mnist_downloader = {
    .name = "fashion_mnist",
    .summary = "Zalando's article images, 60000 train + 10000 test 28x28, MNIST's layout",
    .files = fashion_mnist_files,
    .file_count = sizeof fashion_mnist_files / sizeof fashion_mnist_files[0],
};
