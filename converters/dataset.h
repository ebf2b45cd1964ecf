/* A dataset's one record: its name and format, the raw files it downloads (each named once, with
   URLs, size and checksum), and the converter that reads them; the registry of every record. */
#ifndef FUEL_DATASET_H
#define FUEL_DATASET_H

#include "converter.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DATASET_MAX_URLS 4

struct dataset_file {
    const char *name;                     /* the file name written in the target directory */
    const char *urls[DATASET_MAX_URLS];   /* tried in order; NULL-terminated when fewer */
    uint64_t size;                        /* bytes; 0 when not published */
    const char *checksum;                 /* md5 or sha256 in hex; NULL when not published */
    /* A gzip'd file's content: bytes and sha256 once decompressed (0, NULL when not known). With
       them, a file whose checksum differs but whose content matches is accepted (re-gzipped). */
    uint64_t content_size;
    const char *content_sha256;
};

struct dataset {
    const char *name;
    /* Datasets with several formats (svhn 1, svhn 2) have one record per format under the same
       name; the argument after the name picks the one whose variant it equals. */
    const char *variant;
    const char *summary;
    const struct dataset_file *files;
    size_t file_count;
    struct converter converter; /* its inputs are indices into FILES */
    const char *manifest;       /* the JSON manifest declaring an extra dataset; NULL: built in */
};

/* The built-in datasets, NULL-terminated, and each by itself. */
extern const struct dataset *const datasets[];
extern const struct dataset binarized_mnist_dataset, cifar10_dataset, cifar100_dataset,
    fashion_mnist_dataset, iris_dataset, mnist_dataset, svhn_format_1_dataset,
    svhn_format_2_dataset;

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

/* Whether DATASET has a built-in converter. */
bool dataset_converts(const struct dataset *dataset);

#endif
