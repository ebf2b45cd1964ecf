/* The cards of the built-in datasets (downloaders/datasets.def names each dataset's), defined in
   this folder's files, listed in card.c. */
#ifndef FUEL_CARDS_CARD_LIST_H
#define FUEL_CARDS_CARD_LIST_H

#include "card.h"

#define DATASET(identifier, fixture_place, card) extern const struct dataset_card card##_card;
#include "downloaders/datasets.def"
#undef DATASET

#define CARD_LIST(array) (array), sizeof(array) / sizeof((array)[0])

#endif
