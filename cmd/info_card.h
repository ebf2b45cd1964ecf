/* fuel-info's card section: the dataset card (fuel_card) a converted file carries. */
#ifndef FUEL_CMD_INFO_CARD_H
#define FUEL_CMD_INFO_CARD_H

#include "common/h5py/h5py_reader.h"

#include <jansson.h>

/* "Card" and its lines (homepage, licence and where it was read, the citation's key, each label
   source's classes, the known issues); nothing when FILE has no card. */
void info_card_print(const struct h5py_file *file);

/* The card as a JSON object (its text when it is not JSON), null when FILE has none. */
json_t *info_card_json(const struct h5py_file *file);

#endif
