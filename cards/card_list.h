/* The cards of the built-in datasets, one definition per file of this folder, listed in card.c. */
#ifndef FUEL_CARDS_CARD_LIST_H
#define FUEL_CARDS_CARD_LIST_H

#include "card.h"

extern const struct dataset_card mnist_card, fashion_mnist_card, binarized_mnist_card;
extern const struct dataset_card cifar10_card, cifar100_card;
extern const struct dataset_card svhn_card;
extern const struct dataset_card iris_card, adult_card;
extern const struct dataset_card caltech101_silhouettes_card, celeba_card, dogs_vs_cats_card;
extern const struct dataset_card ilsvrc2012_card, ilsvrc2010_card;

#define CARD_LIST(array) (array), sizeof(array) / sizeof((array)[0])

#endif
