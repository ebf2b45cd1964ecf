/* The built-in datasets' records, each defined beside its downloader's files (downloaders/X.c),
   and their converters (converters/), declared from the one list of them, datasets.def. */
#ifndef FUEL_DATASETS_H
#define FUEL_DATASETS_H

#include "dataset.h"

struct converter;

#define DATASET(identifier, fixture_place, card)                                                  \
    extern const struct dataset identifier##_dataset;                                             \
    extern const struct converter identifier##_converter;
#include "datasets.def"
#undef DATASET

#define DATASET(identifier, fixture_place, card) +1
enum { DATASET_COUNT = 0
#include "datasets.def"
};
#undef DATASET

/* A record's files: its downloader's table TABLE and its length. */
#define DATASET_FILES(table) .files = table, .file_count = sizeof table / sizeof table[0]

#endif
