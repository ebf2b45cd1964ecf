/* fuel export: an H5PYDataset file's splits written in the layouts other frameworks read
   (Caffe/Mocha HDF5 layer lists, MXNet RecordIO, image lists, NumPy .npy, WebDataset tar shards,
   TFRecord shards), one set per split. */
#ifndef FUEL_EXPORT_DRIVER_H
#define FUEL_EXPORT_DRIVER_H

#include "common/base/progress.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct export_request {
    const char *input_path;
    const char *directory;
    const char *published_directory; /* where readers find the files, when elsewhere than
                                        DIRECTORY (an s3:// prefix the staging is uploaded to) */
    const char *form;                /* "hdf5-layer", "recordio", "image-list", "npy",
                                        "webdataset" or "tfrecord" */
    const char *const *splits;       /* the splits to export; all of the file's when none */
    size_t split_count;
    const char *data_source;         /* NULL: example_source_default's */
    bool data_given;                 /* --data was given (shard forms: else the first image) */
    const char *label_source;        /* NULL: "targets" when the file has it, else no labels */
    const char *dtype;               /* NULL (float32 for hdf5-layer, as stored for npy) or
                                        "float32" / "float64" */
    double scale;                    /* multiplies the data converted to float */
    uint64_t examples_per_file;      /* hdf5-layer; 0: as many as Caffe's limits allow */
    unsigned threads;                /* PNG encoders; 0: threads_default() */
    /* webdataset and tfrecord: the sources (none: every source of the file), the shards */
    const char *const *sources;
    size_t source_count;
    uint64_t shards, shard_size, shard_examples, ranks; /* 0: not given */
    bool shuffle;
    bool seed_given;
    uint32_t seed;
    int argc;                        /* the command line typed, for the provenance */
    char *const *argv;
    const char *command;
    enum progress_mode progress;
};

/* The forms, space-separated, for help and completion. */
extern const char export_form_names[];

/* Exports every requested split of the input into its own set of files in the output directory.
   Checks everything (the input's structure, forms, sources, splits, and the space the forms
   know they need) before writing anything: EXIT_CORRUPT_INPUT for a file that fails the checks,
   EXIT_USAGE when the form cannot hold the data source, naming the forms that can, EXIT_WRITE
   when the sets would not fit. Calls PUBLISHED (when not NULL) with each published set's list
   or main file and the set's label (the name its listings are made of: "train", "mnist_train"). */
typedef void export_published_visitor(const char *path, const char *label, void *context);
int export_run(const struct export_request *request, export_published_visitor *published,
               void *context);

#endif
