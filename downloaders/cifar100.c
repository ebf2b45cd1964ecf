/* CIFAR-100's cifar-100-python.tar.gz from Alex Krizhevsky's page (its md5 from there, its sha256
   the one Keras and torchvision check the download against). */
#include "cifar100.h"

#include "datasets.h"

const struct dataset_file cifar100_files[CIFAR100_FILE_COUNT] = {
    [CIFAR100_ARCHIVE] = {.name = "cifar-100-python.tar.gz",
                          .urls = {"https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz",
                                   NULL},
                          .size = 169001437, .checksum = "eb9058c3a382ffc7106e4002c42a8d85",
                          .sha256 =
                              "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"},
};

const char *const cifar100_members[CIFAR100_BATCHES] = {
    CIFAR100_FOLDER "/train",
    CIFAR100_FOLDER "/test",
};

const struct dataset cifar100_dataset = {
    .name = "cifar100",
    .summary = "100 classes of 32x32 colour images, 50000 train + 10000 test",
    DATASET_FILES(cifar100_files),
    .converter = &cifar100_converter,
};

const char *const cifar100_fine_label_names[100] = {
    "apple", "aquarium_fish", "baby", "bear", "beaver", "bed", "bee", "beetle", "bicycle",
    "bottle", "bowl", "boy", "bridge", "bus", "butterfly", "camel", "can", "castle",
    "caterpillar", "cattle", "chair", "chimpanzee", "clock", "cloud", "cockroach", "couch",
    "crab", "crocodile", "cup", "dinosaur", "dolphin", "elephant", "flatfish", "forest", "fox",
    "girl", "hamster", "house", "kangaroo", "keyboard", "lamp", "lawn_mower", "leopard", "lion",
    "lizard", "lobster", "man", "maple_tree", "motorcycle", "mountain", "mouse", "mushroom",
    "oak_tree", "orange", "orchid", "otter", "palm_tree", "pear", "pickup_truck", "pine_tree",
    "plain", "plate", "poppy", "porcupine", "possum", "rabbit", "raccoon", "ray", "road",
    "rocket", "rose", "sea", "seal", "shark", "shrew", "skunk", "skyscraper", "snail", "snake",
    "spider", "squirrel", "streetcar", "sunflower", "sweet_pepper", "table", "tank", "telephone",
    "television", "tiger", "tractor", "train", "trout", "tulip", "turtle", "wardrobe", "whale",
    "willow_tree", "wolf", "woman", "worm"};

const char *const cifar100_coarse_label_names[20] = {
    "aquatic_mammals", "fish", "flowers", "food_containers", "fruit_and_vegetables",
    "household_electrical_devices", "household_furniture", "insects", "large_carnivores",
    "large_man-made_outdoor_things", "large_natural_outdoor_scenes",
    "large_omnivores_and_herbivores", "medium_mammals", "non-insect_invertebrates", "people",
    "reptiles", "small_mammals", "trees", "vehicles_1", "vehicles_2"};
