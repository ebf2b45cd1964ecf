/* fuel-info's card section: the dataset card (fuel_card) a converted file carries; and the class
   names a file stores itself. */
#ifndef FUEL_CMD_INFO_CARD_H
#define FUEL_CMD_INFO_CARD_H

#include "common/h5py/h5py_reader.h"

#include <jansson.h>

/* "Card" and its lines (homepage, licence and where it was read, the citation's key, each label
   source's classes, the known issues); nothing when FILE has no card. */
void info_card_print(const struct h5py_file *file);

/* The card as a JSON object (its text when it is not JSON), null when FILE has none. */
json_t *info_card_json(const struct h5py_file *file);

/* The classes of each source the file names itself (fuel pack's SOURCE_classes) rather than in
   its card: {"targets": ["cat", "dog"]}, an empty object when there are none. */
json_t *info_stored_classes_json(const struct h5py_file *file);

/* "classes of targets: 0 cat, 1 dog", a line per such source, after the sources. */
void info_stored_classes_print(const struct h5py_file *file);

#endif
