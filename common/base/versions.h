/* The versions of the libraries fuel runs with, as they report themselves at run time. */
#ifndef FUEL_VERSIONS_H
#define FUEL_VERSIONS_H

#include <stddef.h>

struct library_version {
    const char *name;
    char version[64];
};

enum { LIBRARY_VERSION_COUNT = 6 };

/* Fills VERSIONS with hdf5, zlib, libarchive, libcurl, libpng and jansson, in that order. */
void library_versions(struct library_version versions[LIBRARY_VERSION_COUNT]);

#endif
