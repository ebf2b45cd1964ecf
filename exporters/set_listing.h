/* The entries of the set LABEL published in a directory, read from the set's own listing: a
   provenance.json's or a SPLIT.json's export.files, an hdf5-layer list's parts, or the hidden
   DIR/.LABEL.exported record that earlier versions kept (named among the entries, so that it goes
   with the set). The next export of LABEL removes those its own set lacks. */
#ifndef FUEL_SET_LISTING_H
#define FUEL_SET_LISTING_H

#include "set_manifest.h"

/* The entries every listing of LABEL in DIRECTORY (open) names, indexed, into RECORD (inodes
   0). A listing that is missing or not fuel's names nothing; a listed name that cannot be an
   entry of a set of LABEL (outside the directory, or not named after LABEL) is passed over. */
int set_listing_read(int directory, const char *label, struct set_manifest *record);

#endif
