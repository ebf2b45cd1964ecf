/* A dataset's record: its name and format, the raw files it downloads (each named once, with URLs,
   size and checksum), and a pointer to the converter that reads them (dataset_registry.c ties the
   built-in records together; manifests of extra datasets make records without a converter). */
#ifndef FUEL_DOWNLOADERS_DATASET_H
#define FUEL_DOWNLOADERS_DATASET_H

#include <stddef.h>
#include <stdint.h>

#define DATASET_MAX_URLS 4

struct dataset_file {
    const char *name;                     /* the file name written in the target directory */
    const char *urls[DATASET_MAX_URLS];   /* tried in order; NULL-terminated when fewer */
    uint64_t size;                        /* bytes; 0 when not published */
    const char *checksum;                 /* md5 or sha256 in hex; NULL when not published */
    /* With an md5 CHECKSUM, the file's sha256 where others who checked the published file
       state it (NULL: none): a file of that sha256 has the published md5 without computing it. */
    const char *sha256;
    /* A gzip'd file's content: bytes and sha256 once decompressed (0, NULL when not known). With
       them, a file whose checksum differs but whose content matches is accepted (re-gzipped). */
    uint64_t content_size;
    const char *content_sha256;
    /* A re-compressed copy known to decompress to that content: its bytes and sha256 (0, NULL:
       none). A file with that sha256 holds the published content without being decompressed. */
    uint64_t repacked_size;
    const char *repacked_sha256;
};

/* What converters/converter.h declares; the downloaders never look inside it. */
struct converter;

struct dataset {
    const char *name;
    /* Datasets with several formats (svhn 1, svhn 2) have one record per format under the same
       name; the argument after the name picks the one whose variant it equals. */
    const char *variant;
    const char *summary;
    const struct dataset_file *files; /* its downloader's table, e.g. downloaders/mnist.c's */
    size_t file_count;
    const struct converter *converter; /* its inputs are indices into FILES; NULL: none built in */
    const char *manifest; /* the JSON manifest declaring an extra dataset; NULL: built in */
};

#endif
