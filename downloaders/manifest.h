/* Extra downloaders: datasets declared by JSON manifests (extra_downloaders in fuelrc(5)). */
#ifndef FUEL_MANIFEST_H
#define FUEL_MANIFEST_H

#include "dataset.h"

#include <stddef.h>

/* The datasets one manifest declares; their strings point into the parsed JSON it keeps. */
struct manifest {
    char *path;
    void *json;
    struct dataset *datasets;
    size_t dataset_count;
};

/* Parses PATH. A malformed manifest: EXIT_USAGE with "malformed manifest: PATH: JSON-PATH: why"
   ("line L, column C" for JSON syntax errors); an unreadable one: EXIT_USAGE naming it. */
int manifest_load(struct manifest *manifest, const char *path);
void manifest_free(struct manifest *manifest);

#endif
