/* Compares the contents of two H5PYDataset files in bounded memory (values read in blocks): what
   `fuel diff` reports, in this order: splits and sources one file only has; type, shape, label
   and split-row differences; per source and split, the number of differing examples and the
   first few; then the provenance differences, listed but not counted. The content compared is
   the one content digests cover (content_digest.h): the two agree on "same" whatever the layout. */
#ifndef FUEL_CONTENT_DIFF_H
#define FUEL_CONTENT_DIFF_H

#include "common/base/stage_listener.h"
#include "common/h5py/h5py_reader.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How many differing examples each values entry lists. */
#define CONTENT_DIFF_FIRST 5

enum content_side { CONTENT_LEFT, CONTENT_RIGHT };

/* A split or source that one file only has. */
struct content_only {
    const char *kind; /* "split" or "source" */
    char *name;
    enum content_side side; /* the file that has it */
};

/* A property of a source, or of a split row, that differs; LEFT and RIGHT are its values as text,
   NULL where a file lacks it. */
struct content_change {
    char *split;          /* NULL: a property of the source */
    char *source;
    const char *property; /* dataset, dtype, layout, shape, axis labels, shape labels; start,
                             stop, available, comment, indices, row */
    char *left;
    char *right;
};

/* Differing examples of a source, overall or within one split. The whole source is compared
   index for index, a split position for position (the left file's split's Nth example against
   the right's Nth), over the examples both hold; the longer one's others all count as differing
   (COUNTS tell how many each file has). */
struct content_values {
    char *source;
    char *split;          /* NULL: the whole source, FIRST are indices into it; else positions
                             within the split */
    uint64_t examples;    /* examples of the source (the larger count) or selected by the split */
    uint64_t counts[2];   /* examples of the source, or selected by the split, in each file */
    uint64_t differing;   /* examples whose shape or values differ, or that one file only has */
    size_t first_count;
    uint64_t first[CONTENT_DIFF_FIRST]; /* the smallest, ascending */
};

/* A provenance difference: the fuel_provenance entry KEY (command, inputs, libraries, created,
   or another) or a string root attribute (KEY "attribute"). */
struct content_provenance_change {
    char *key;
    char *name;     /* the input, library or attribute; NULL for a whole entry */
    char *property; /* an input's size, sha256 or md5; NULL otherwise */
    char *left;
    char *right;
};

struct content_diff_report {
    char *left;  /* the files' paths */
    char *right;
    struct content_only *only;
    size_t only_count;
    struct content_change *structure;
    size_t structure_count;
    struct content_values *values;
    size_t values_count;
    struct content_provenance_change *provenance;
    size_t provenance_count;
};

/* Compares LEFT and RIGHT into REPORT (freed by the caller with content_diff_free, also after a
   failure), telling LISTENER (NULL: nobody) each source's examples as they are compared.
   EXIT_USAGE when a source's element type has no canonical form; EXIT_CORRUPT_INPUT when values
   cannot be read; EXIT_OTHER when out of memory. */
int content_diff_compare(const struct h5py_file *left, const struct h5py_file *right,
                         const struct stage_listener *listener,
                         struct content_diff_report *report);

/* Whether the contents are the same: nothing but provenance differences. */
bool content_diff_same(const struct content_diff_report *report);

void content_diff_free(struct content_diff_report *report);

/* Prints REPORT as text (the layout of fuel-diff(1)); EXIT_WRITE when STREAM fails. */
int content_diff_print_text(FILE *stream, const struct content_diff_report *report);

/* REPORT as a JSON object (fuel-diff(1) --json); NULL when out of memory. */
json_t *content_diff_json(const struct content_diff_report *report);

#endif
