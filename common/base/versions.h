/* The versions of the libraries fuel runs with, as they report themselves at run time. */
#ifndef FUEL_VERSIONS_H
#define FUEL_VERSIONS_H

#include <stddef.h>

struct library_version {
    const char *name;
    char version[64];
};

enum { LIBRARY_VERSION_COUNT = 7 };

/* Fills VERSIONS with hdf5, zlib, libarchive, libcurl, libpng, jansson and libisal, in that
   order. ISA-L does not report its version: libisal's is the one built against (pkg-config's),
   "none" in a build that inflates with zlib. */
void library_versions(struct library_version versions[LIBRARY_VERSION_COUNT]);

#endif
