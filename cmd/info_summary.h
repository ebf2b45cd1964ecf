/* fuel-info's summary of one file among several: a table row, or a JSON object. */
#ifndef FUEL_INFO_SUMMARY_H
#define FUEL_INFO_SUMMARY_H

#include "common/h5py/h5py_reader.h"
#include "info_digest.h"
#include "table.h"

#include <jansson.h>

/* The columns of a summary row. */
#define INFO_SUMMARY_COLUMNS 7

/* How many hex digits of the content digest a summary row shows. */
#define INFO_SUMMARY_DIGEST_DIGITS 12

/* Adds FILE's row to TABLE: name, dataset, splits with their counts, each source's dtype, the
   first digits of the content DIGEST ("-" when none), creation time, and "fixture" for a
   fixture. */
int info_summary_add(struct table *table, const struct h5py_file *file,
                     const struct info_digest *digest);

/* The same as {"file", "name", "dataset", "splits", "dtypes", "content_digest" (whole, or
   null), "created", "fixture"}. */
json_t *info_summary_json(const struct h5py_file *file, const struct info_digest *digest);

#endif
