/* The provenance of an exported set: the input file's sha256 (hashed while the export runs), the
   input's own fuel_provenance, the export command, form and split. */
#ifndef FUEL_EXPORT_PROVENANCE_H
#define FUEL_EXPORT_PROVENANCE_H

#include "common/h5py/h5py_reader.h"
#include "export_driver.h"
#include "export_set.h"

struct export_provenance;

/* Starts hashing the input of REQUEST. */
int export_provenance_begin(struct export_provenance **provenance,
                            const struct export_request *request, const struct h5py_file *file);

/* The JSON text for the set of SPLIT exporting the source DATA (NULL, written as null, when the
   form exports several: the shard forms), caller frees; waits for the hash the first time. With
   a SET, the text is its listing LISTING: export.files names the set's entries, LISTING last,
   which the next export of the set reads (set_listing.h). NULL with error_set on failure. */
char *export_provenance_text(struct export_provenance *provenance, const char *split,
                             const char *data, const struct export_set *set,
                             const char *listing);

void export_provenance_free(struct export_provenance *provenance);

#endif
