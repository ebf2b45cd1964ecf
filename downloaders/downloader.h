/* What a dataset downloader declares: the files it needs, each with its URLs, size and checksum. */
#ifndef FUEL_DOWNLOADER_H
#define FUEL_DOWNLOADER_H

#include <stddef.h>
#include <stdint.h>

#define DOWNLOADER_MAX_URLS 4

struct dataset_file {
    const char *name;                       /* the file name written in the target directory */
    const char *urls[DOWNLOADER_MAX_URLS];  /* tried in order; NULL-terminated when fewer */
    uint64_t size;                          /* bytes; 0 when not published */
    const char *checksum;                   /* md5 or sha256 in hex; NULL when not published */
};

struct downloader {
    const char *name;
    /* Datasets with several formats (svhn 1, svhn 2) register one downloader per format under
       the same name; the first positional argument picks the one whose variant it equals. */
    const char *variant;
    const char *summary;
    const struct dataset_file *files;
    size_t file_count;
    const char *manifest; /* the JSON manifest declaring an extra downloader; NULL: built in */
};

/* The built-in downloaders, NULL-terminated. */
extern const struct downloader *const downloaders[];

/* Adds the datasets of the JSON manifests ENTRIES name (files, or directories whose *.json files
   are read in name order) after the built-ins; extra_downloaders in fuelrc(5). A malformed
   manifest, or a name declared by a built-in or by two manifests: EXIT_USAGE naming the file and
   the JSON path. */
int downloader_registry_load(char *const *entries, size_t count);

/* The built-ins, then the extras loaded, NULL-terminated. */
const struct downloader *const *downloader_list(void);

/* Forgets the extras loaded. */
void downloader_registry_free(void);

/* The downloader NAME with VARIANT (NULL for datasets without variants); NULL when unknown. */
const struct downloader *downloader_find(const char *name, const char *variant);

/* Whether some downloader called NAME declares variants. */
int downloader_has_variants(const char *name);

#endif
