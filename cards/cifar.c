/* The cards of CIFAR-10 and CIFAR-100: class names in the order of batches.meta's label_names
   and meta's fine_label_names and coarse_label_names. */
#include "card_list.h"

static const char krizhevsky_2009[] =
    "@techreport{krizhevsky2009learning,\n"
    "  author = {Krizhevsky, Alex},\n"
    "  title = {Learning Multiple Layers of Features from Tiny Images},\n"
    "  institution = {University of Toronto},\n  year = {2009}\n}\n";

static const char cifar_homepage[] = "https://www.cs.toronto.edu/~kriz/cifar.html";

static const char *const cifar10_names[] = {"airplane", "automobile", "bird", "cat", "deer",
                                            "dog", "frog", "horse", "ship", "truck"};
static const struct card_classes cifar10_classes[] = {{"targets", CARD_LIST(cifar10_names)}};
static const struct card_issue cifar10_issues[] = {
    {"3.3% of the test images have near-duplicates in the training set (ciFAIR-10 replaces "
     "them)",
     "Barz and Denzler, Do We Train on Test Data? Purging CIFAR of Near-Duplicates, J. Imaging "
     "2020, 6(6), 41, https://doi.org/10.3390/jimaging6060041"},
};

const struct dataset_card cifar10_card = {
    .dataset = "cifar10",
    .homepage = cifar_homepage,
    /* The page describes the data and asks for the technical report to be cited; it names no
       licence. */
    .licence = "not stated by the publisher",
    .licence_source = cifar_homepage,
    .citation = krizhevsky_2009,
    .classes = CARD_LIST(cifar10_classes),
    .issues = CARD_LIST(cifar10_issues),
};

static const char *const fine_names[] = {
    "apple", "aquarium_fish", "baby", "bear", "beaver", "bed", "bee", "beetle", "bicycle",
    "bottle", "bowl", "boy", "bridge", "bus", "butterfly", "camel", "can", "castle",
    "caterpillar", "cattle", "chair", "chimpanzee", "clock", "cloud", "cockroach", "couch",
    "crab", "crocodile", "cup", "dinosaur", "dolphin", "elephant", "flatfish", "forest", "fox",
    "girl", "hamster", "house", "kangaroo", "keyboard", "lamp", "lawn_mower", "leopard", "lion",
    "lizard", "lobster", "man", "maple_tree", "motorcycle", "mountain", "mouse", "mushroom",
    "oak_tree", "orange", "orchid", "otter", "palm_tree", "pear", "pickup_truck", "pine_tree",
    "plain", "plate", "poppy", "porcupine", "possum", "rabbit", "raccoon", "ray", "road",
    "rocket", "rose", "sea", "seal", "shark", "shrew", "skunk", "skyscraper", "snail", "snake",
    "spider", "squirrel", "streetcar", "sunflower", "sweet_pepper", "table", "tank",
    "telephone", "television", "tiger", "tractor", "train", "trout", "tulip", "turtle",
    "wardrobe", "whale", "willow_tree", "wolf", "woman", "worm",
};
static const char *const coarse_names[] = {
    "aquatic_mammals", "fish", "flowers", "food_containers", "fruit_and_vegetables",
    "household_electrical_devices", "household_furniture", "insects", "large_carnivores",
    "large_man-made_outdoor_things", "large_natural_outdoor_scenes",
    "large_omnivores_and_herbivores", "medium_mammals", "non-insect_invertebrates", "people",
    "reptiles", "small_mammals", "trees", "vehicles_1", "vehicles_2",
};
static const struct card_classes cifar100_classes[] = {
    {"fine_labels", CARD_LIST(fine_names)}, {"coarse_labels", CARD_LIST(coarse_names)}};
static const struct card_issue cifar100_issues[] = {
    {"10% of the test images have near-duplicates in the training set (ciFAIR-100 replaces "
     "them)",
     "Barz and Denzler, Do We Train on Test Data? Purging CIFAR of Near-Duplicates, J. Imaging "
     "2020, 6(6), 41, https://doi.org/10.3390/jimaging6060041"},
};

const struct dataset_card cifar100_card = {
    .dataset = "cifar100",
    .homepage = cifar_homepage,
    .licence = "not stated by the publisher",
    .licence_source = cifar_homepage,
    .citation = krizhevsky_2009,
    .classes = CARD_LIST(cifar100_classes),
    .issues = CARD_LIST(cifar100_issues),
};
