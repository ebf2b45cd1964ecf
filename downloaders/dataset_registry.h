/* The registry of every dataset record: the built-ins (downloaders/datasets.def, each record a
   downloader's files and a converter), then the extras of manifests; the one lookup by name and
   format. */
#ifndef FUEL_DATASET_REGISTRY_H
#define FUEL_DATASET_REGISTRY_H

#include "downloaders/datasets.h"

#include <stdbool.h>
#include <stddef.h>

/* The built-in datasets of downloaders/datasets.def, in its order, NULL-terminated (each by itself:
   downloaders/datasets.h). */
extern const struct dataset *const datasets[];

/* Adds the datasets of the JSON manifests ENTRIES name (files, or directories whose *.json files
   are read in name order) after the built-ins; extra_downloaders in fuelrc(5). A malformed
   manifest, or a name declared by a built-in or by two manifests: EXIT_USAGE naming the file and
   the JSON path. */
int dataset_registry_load(char *const *entries, size_t count);

/* The built-ins, then the extras loaded, NULL-terminated. */
const struct dataset *const *dataset_list(void);

/* Forgets the extras loaded. */
void dataset_registry_free(void);

enum dataset_lookup {
    DATASET_FOUND,
    DATASET_UNKNOWN,           /* no dataset has that name */
    DATASET_FORMAT_MISSING,    /* the dataset has formats and none was given */
    DATASET_FORMAT_UNKNOWN,    /* the dataset has formats, none of them the one given */
    DATASET_FORMAT_UNEXPECTED, /* a format was given to a dataset without formats */
};

/* The one lookup: the dataset NAME in format VARIANT (NULL when none was given) into *FOUND
   (NULL unless DATASET_FOUND). */
enum dataset_lookup dataset_find(const char *name, const char *variant,
                                 const struct dataset **found);

/* Whether the dataset NAME has formats, so the argument after its name is one. */
bool dataset_has_formats(const char *name);

/* The formats of the dataset NAME joined by SEPARATOR ("1, 2") into TEXT; "" when it has none. */
void dataset_format_list(const char *name, const char *separator, char *text, size_t size);

/* Whether DATASET has a built-in converter (DATASET->converter is not NULL). */
bool dataset_converts(const struct dataset *dataset);

#endif
