/* What the export driver hands each form: one split of the input, its sources, its staged set. */
#ifndef FUEL_EXPORT_FORM_H
#define FUEL_EXPORT_FORM_H

#include "common/h5py/h5py_reader.h"
#include "example_source.h"
#include "export_driver.h"
#include "export_provenance.h"
#include "export_set.h"
#include "image.h"

#include <stdbool.h>

struct export_job {
    const struct export_request *request;
    const struct h5py_file *file;
    const char *stem;              /* "mnist_train": the input's name and the split */
    const char *split;
    struct example_source *data;
    struct example_source *label;  /* NULL when the export has no labels */
    struct image_axes axes;        /* forms of images */
    struct export_set *set;
    struct progress *progress;
    uint64_t progress_unit;        /* bytes of source data per example */
    struct export_provenance *provenance;
    const char *const *splits;     /* every split the export writes */
    size_t split_count;
    void *form_state;              /* forms with prepare: theirs, freed by finish */
    char main_file[704];           /* the set's file printed when published */
};

struct export_form {
    const char *name;
    bool images;                   /* needs image sources */
    bool variable;                 /* holds variable-length data sources */
    int (*write)(struct export_job *job);
    /* The least the job's set takes, in all and in its largest file, for the space check before
       writing; NULL where that is not known before (PNGs). */
    void (*need)(const struct export_job *job, uint64_t *bytes, uint64_t *largest);
    /* Forms that read every source themselves (the shard forms): checks the whole export before
       anything is written; the driver then opens no data or label source. NULL for the others. */
    int (*prepare)(struct export_job *job);
    void (*finish)(struct export_job *job);
    /* Writes the split's listing, which records the provenance, into its staged set: called
       after every split's files are staged and the input's digests taken from the bytes they
       read, the job's split, stem, set and selections those of that split again. */
    int (*listing)(struct export_job *job);
};

extern const struct export_form export_form_hdf5_layer;
extern const struct export_form export_form_recordio;
extern const struct export_form export_form_image_list;
extern const struct export_form export_form_npy;
extern const struct export_form export_form_webdataset;
extern const struct export_form export_form_tfrecord;

/* The split's labels [FIRST, FIRST + COUNT) as doubles (0 without a label source). */
int export_labels_read(const struct export_job *job, uint64_t first, uint64_t count,
                       double *values);

/* Writes TEXT as the staged file ENTRY of the job's set. */
int export_text_write(struct export_job *job, const char *entry, const char *text, size_t length);

/* Writes the set's NAME_SPLIT.provenance.json (last in the set): the listing of the forms that
   have no other. */
int export_provenance_write(struct export_job *job);

/* How many examples of BYTES each a block holds: about 4 MiB, at least one. */
uint64_t export_block_examples(size_t bytes);

/* Progress through the split: DONE of TOTAL examples. */
void export_progress(struct export_job *job, uint64_t done, uint64_t total);

#endif
