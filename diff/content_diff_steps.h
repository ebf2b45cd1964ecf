/* The sections of the content diff (content_diff.h), each in its own file, and the report lists
   they append to. Every append copies its strings; all return EXIT_OK or EXIT_OTHER. */
#ifndef FUEL_CONTENT_DIFF_STEPS_H
#define FUEL_CONTENT_DIFF_STEPS_H

#include "content_diff.h"

int diff_only_add(struct content_diff_report *report, const char *kind, const char *name,
                  enum content_side side);

/* SPLIT may be NULL; LEFT or RIGHT NULL where that file lacks the property. */
int diff_change_add(struct content_diff_report *report, const char *split, const char *source,
                    const char *property, const char *left, const char *right);

/* Appends a copy of VALUES (its strings copied too). */
int diff_values_add(struct content_diff_report *report, const struct content_values *values);

int diff_provenance_add(struct content_diff_report *report, const char *key, const char *name,
                        const char *property, const char *left, const char *right);

/* Splits and sources one file only has; type, shape, label and split-row differences. */
int diff_structure(struct content_diff_report *report, const struct h5py_file *left,
                   const struct h5py_file *right);

/* Differing examples per source and per split; LISTENER (NULL: nobody) told the examples done. */
int diff_values(struct content_diff_report *report, const struct h5py_file *left,
                const struct h5py_file *right, const struct stage_listener *listener);

/* fuel_provenance entries and other string root attributes that differ. */
int diff_provenance(struct content_diff_report *report, const struct h5py_file *left,
                    const struct h5py_file *right);

#endif
