/* Asks each library for its own version string (ISA-L has none: the one built against). */
#include "versions.h"

#include <archive.h>
#include <curl/curl.h>
#include <hdf5.h>
#include <jansson.h>
#include <png.h>
#include <stdio.h>
#include <zlib.h>

void library_versions(struct library_version versions[LIBRARY_VERSION_COUNT])
{
    unsigned major, minor, release;
    H5get_libversion(&major, &minor, &release);
    versions[0].name = "hdf5";
    snprintf(versions[0].version, sizeof versions[0].version, "%u.%u.%u", major, minor, release);
    versions[1].name = "zlib";
    snprintf(versions[1].version, sizeof versions[1].version, "%s", zlibVersion());
    versions[2].name = "libarchive";
    snprintf(versions[2].version, sizeof versions[2].version, "%d.%d.%d",
             archive_version_number() / 1000000, archive_version_number() / 1000 % 1000,
             archive_version_number() % 1000);
    versions[3].name = "libcurl";
    snprintf(versions[3].version, sizeof versions[3].version, "%s",
             curl_version_info(CURLVERSION_NOW)->version);
    versions[4].name = "libpng";
    snprintf(versions[4].version, sizeof versions[4].version, "%s", png_get_libpng_ver(NULL));
    versions[5].name = "jansson";
    snprintf(versions[5].version, sizeof versions[5].version, "%s", jansson_version_str());
    versions[6].name = "libisal";
#ifdef FUEL_ISAL_VERSION
    snprintf(versions[6].version, sizeof versions[6].version, "%s", FUEL_ISAL_VERSION);
#else
    snprintf(versions[6].version, sizeof versions[6].version, "none");
#endif
}
