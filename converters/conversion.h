/* One conversion request, as fuel-convert, fuel-fetch and fuel-fixture make it, run into an
   output file published whole (common/h5py/published_file.h). */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "common/h5py/provenance.h"
#include "converter.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

/* Everything a conversion needs; the conversion layer works out from it the inputs' paths, where
   the converter keeps scratch files and how many threads it runs. */
struct conversion_request {
    const struct dataset *dataset;             /* whose converter reads whose files */
    /* The converter's own options struct (mnist --dtype), as the command runner filled it from
       the converter's option table; NULL: the converter's defaults. */
    const void *options;
    const char *input_directory;               /* where the dataset's files are */
    const char *output_directory;              /* where the file is published */
    const char *output_name; /* as given to -r (.hdf5 appended as publish_file_name does); NULL:
                                the converter's own name (mnist_float32.hdf5) */
    unsigned threads;        /* 0: threads_default() */
    const struct typed_command *typed;         /* the command line the file records */
    const struct stage_listener *progress; /* NULL: nobody listens */
    json_t *fixture_note; /* fuel fixture's seed and counts, first in the provenance; NULL */
};

/* REQUEST for DATASET (which has a converter): its options' defaults, "." for both directories,
   nothing else. */
void conversion_request_init(struct conversion_request *request, const struct dataset *dataset);

/* The name of the file REQUEST publishes in its output directory. */
void conversion_output_name(const struct conversion_request *request, char *name, size_t size);

/* The paths of a converter's inputs in the input directory. */
struct conversion_inputs {
    char paths[CONVERTER_MAX_INPUTS][PATH_MAX];
    const char *list[CONVERTER_MAX_INPUTS]; /* paths[0..count) */
    size_t count;
};

/* INPUTS: each input of REQUEST's converter, as REQUEST->input_directory/NAME, in its order. */
void conversion_inputs_list(const struct conversion_request *request,
                            struct conversion_inputs *inputs);

/* Runs REQUEST's converter on its inputs (hashed into the provenance) into its output directory,
   published only when complete; EXIT_WRITE when that is not an existing directory. Writes the
   final path into PATH. */
int conversion_run(const struct conversion_request *request, char *path, size_t size);

#endif
