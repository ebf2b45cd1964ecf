/* The cards of the digit datasets: MNIST, Fashion-MNIST, binarized MNIST and SVHN. */
#include "card_list.h"

static const char *const digits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

static const char lecun_1998[] =
    "@article{lecun1998gradient,\n"
    "  author = {LeCun, Yann and Bottou, L{\\'e}on and Bengio, Yoshua and Haffner, Patrick},\n"
    "  title = {Gradient-Based Learning Applied to Document Recognition},\n"
    "  journal = {Proceedings of the IEEE},\n"
    "  volume = {86},\n  number = {11},\n  pages = {2278--2324},\n  year = {1998}\n}\n";

static const struct card_classes mnist_classes[] = {{"targets", CARD_LIST(digits)}};

const struct dataset_card mnist_card = {
    .dataset = "mnist",
    .homepage = "http://yann.lecun.com/exdb/mnist/",
    /* Keras' documentation (keras.io/api/datasets/mnist) and Kaggle's digit-recognizer say
       "Creative Commons Attribution-Share Alike 3.0"; the publisher's page listed no licence
       when piximi/piximi#308 looked (2022): disputed, so the source is named in the card. */
    .licence = "CC-BY-SA-3.0",
    .licence_source = "disputed: stated by keras.io/api/datasets/mnist and Kaggle's "
                      "digit-recognizer; http://yann.lecun.com/exdb/mnist/ listed none in 2022 "
                      "(github.com/piximi/piximi/issues/308)",
    .citation = lecun_1998,
    .classes = CARD_LIST(mnist_classes),
};

static const char *const garments[] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                       "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
static const struct card_classes fashion_classes[] = {{"targets", CARD_LIST(garments)}};
static const struct card_issue fashion_issues[] = {
    {"the first release (2017-08-25) held 43 duplicates in train, 1 in test and 10 train/test "
     "overlaps, replaced in the release of 2017-08-31",
     "https://github.com/zalandoresearch/fashion-mnist/issues/44"},
};

const struct dataset_card fashion_mnist_card = {
    .dataset = "fashion_mnist",
    .homepage = "https://github.com/zalandoresearch/fashion-mnist",
    /* The repository's LICENSE file; the authors' announcement (hanxiao.io, 2017-08-26): "The
       dataset is published under MIT License". Class order: the repository's Labels table. */
    .licence = "MIT",
    .licence_source = "https://github.com/zalandoresearch/fashion-mnist (LICENSE)",
    .citation = "@online{xiao2017/online,\n"
                "  author = {Han Xiao and Kashif Rasul and Roland Vollgraf},\n"
                "  title = {Fashion-MNIST: a Novel Image Dataset for Benchmarking Machine "
                "Learning Algorithms},\n"
                "  date = {2017-08-28},\n  year = {2017},\n  eprintclass = {cs.LG},\n"
                "  eprinttype = {arXiv},\n  eprint = {cs.LG/1708.07747}\n}\n",
    .classes = CARD_LIST(fashion_classes),
    .issues = CARD_LIST(fashion_issues),
};

const struct dataset_card binarized_mnist_card = {
    .dataset = "binarized_mnist",
    .homepage = "http://www.cs.toronto.edu/~larocheh/public/datasets/binarized_mnist/",
    /* The download directory holds the three .amat files and no licence; MNIST's own terms
       (mnist_card) apply to the digits it binarises. */
    .licence = "not stated by the publisher",
    .licence_source = "http://www.cs.toronto.edu/~larocheh/public/datasets/binarized_mnist/",
    .citation = "@inproceedings{salakhutdinov2008quantitative,\n"
                "  author = {Salakhutdinov, Ruslan and Murray, Iain},\n"
                "  title = {On the Quantitative Analysis of Deep Belief Networks},\n"
                "  booktitle = {Proceedings of the 25th International Conference on Machine "
                "Learning},\n  pages = {872--879},\n  year = {2008}\n}\n",
};

/* Format 2's targets and format 1's bbox_labels, digit '0' stored as 0 (the site's 10). */
static const struct card_classes svhn_classes[] = {{"targets", CARD_LIST(digits)},
                                                   {"bbox_labels", CARD_LIST(digits)}};

const struct dataset_card svhn_card = {
    .dataset = "svhn",
    .homepage = "http://ufldl.stanford.edu/housenumbers/",
    /* The publisher's words, beside the downloads on its page. */
    .licence = "for non-commercial use only",
    .licence_source = "http://ufldl.stanford.edu/housenumbers/",
    .citation = "@inproceedings{netzer2011reading,\n"
                "  author = {Netzer, Yuval and Wang, Tao and Coates, Adam and Bissacco, "
                "Alessandro and Wu, Bo and Ng, Andrew Y.},\n"
                "  title = {Reading Digits in Natural Images with Unsupervised Feature "
                "Learning},\n"
                "  booktitle = {NIPS Workshop on Deep Learning and Unsupervised Feature "
                "Learning},\n  year = {2011}\n}\n",
    .classes = CARD_LIST(svhn_classes),
};
