/* The provenance of an exported set: the input file's sha256 (hashed from the bytes the export
   reads), the input's own fuel_provenance, the export command, form and split. */
#ifndef FUEL_EXPORT_PROVENANCE_H
#define FUEL_EXPORT_PROVENANCE_H

#include "common/h5py/h5py_reader.h"
#include "export_driver.h"
#include "export_set.h"

struct export_provenance;

/* Starts hashing the input of REQUEST from the bytes read through common/base/input_file.h
   (HDF5's too, through the tapped driver): before the input is opened. */
int export_provenance_begin(struct export_provenance **provenance,
                            const struct export_request *request);

/* Keeps the input FILE's own fuel_provenance, once it is open. */
void export_provenance_input(struct export_provenance *provenance, const struct h5py_file *file);

/* Once every set's files are read and written: the input's digests, what it was not read for
   hashed to its end. */
int export_provenance_finish(struct export_provenance *provenance);

/* The JSON text for the set of SPLIT exporting the source DATA (NULL, written as null, when the
   form exports several: the shard forms), caller frees; after export_provenance_finish. With
   a SET, the text is its listing LISTING: export.files names the set's entries, LISTING last,
   which the next export of the set reads (set_listing.h). NULL with error_set on failure. */
char *export_provenance_text(struct export_provenance *provenance, const char *split,
                             const char *data, const struct export_set *set,
                             const char *listing);

void export_provenance_free(struct export_provenance *provenance);

#endif
