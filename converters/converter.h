/* What a dataset's converter declares: its inputs (among the dataset's files), options, output
   name, and the conversion loop; and the helpers the commands and the loops call. */
#ifndef FUEL_CONVERTER_H
#define FUEL_CONVERTER_H

#include "common/base/command_option.h"
#include "common/base/stage_listener.h"
#include "common/h5py/h5py_writer.h"
#include "downloaders/dataset.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONVERTER_MAX_INPUTS 16

struct dataset;

/* What the conversion layer (conversion.c) hands a converter, worked out from a conversion
   request; converters never build it. */
struct converter_arguments {
    const struct dataset *dataset; /* whose converter runs, and whose files its inputs are */
    const char *input_directory;
    /* Where a converter may keep scratch files: unlinked ones, or named as publish_begin names
       temporaries so that `fuel clean` finds them; NULL: $TMPDIR. */
    const char *scratch_directory;
    /* The dataset options given (mnist --dtype): the converter's own options struct, filled
       from its option table by the command runner; the converter's defaults until then. */
    const void *options;
    /* Worker threads a converter may use, at least 1; the data written never depend on it. */
    unsigned threads;
    const struct stage_listener *progress; /* NULL: nobody listens; converters never print */
    /* What the converter records in the provenance under "conversion" (the images --skip-bad
       left out): a JSON object the conversion layer owns; NULL: nothing is recorded. */
    struct json_t *notes;
    /* The dataset's card (cards/card.h) as JSON, written into the file as fuel_card; a converter
       may add what it learns from its inputs (ImageNet's synsets); NULL: no card. */
    struct json_t *card;
};

struct converter {
    const char *summary;
    /* The files the conversion reads, in the order it reads them: indices into the dataset's
       files, so their names are written once, in the file table the downloader fetches. */
    size_t inputs[CONVERTER_MAX_INPUTS];
    size_t input_count;
    /* The dataset options: option-table entries whose offsets point into the converter's own
       options struct of OPTIONS_SIZE bytes, which holds OPTION_DEFAULTS until options are given. */
    const struct command_option *options;
    size_t option_count;
    size_t options_size;
    const void *option_defaults;
    /* The default output file name: OUTPUT_FILE, or the output_name callback when it depends on
       the options (mnist --dtype float32 writes mnist_float32.hdf5). */
    const char *output_file;
    void (*output_name)(const struct converter_arguments *arguments, char *name, size_t size);
    /* Reads the inputs and fills WRITER (sources, rows, splits); an exit code, error_set on
       failure. NULL: the dataset has no built-in converter (datasets of manifests). */
    int (*convert)(const struct converter_arguments *arguments, struct h5py_writer *writer);
    /* What a converter shared by several datasets reads of each (CIFAR's struct cifar_layout);
       NULL when it has none. */
    const void *layout;
};

struct converter_inputs {
    const char *names[CONVERTER_MAX_INPUTS]; /* relative to the input directory */
    size_t count;
};


/* The names of the files DATASET's converter reads, in its order. */
void converter_list_inputs(const struct dataset *dataset, struct converter_inputs *inputs);

/* The path of the file FILE of ARGUMENTS' dataset (an index into its downloader's table, named by
   the downloader's enum: MNIST_TRAIN_IMAGES): the input directory, '/', the file's name. */
void converter_input_path(const struct converter_arguments *arguments, size_t file, char *path,
                          size_t size);

/* CONVERTER's default output file name with ARGUMENTS into NAME (SIZE bytes). */
void converter_name_output(const struct converter *converter,
                           const struct converter_arguments *arguments, char *name, size_t size);

/* Tells ARGUMENTS' listener that the stage LABEL of TOTAL examples begins; nothing without one. */
void converter_report_stage(const struct converter_arguments *arguments, const char *label,
                            uint64_t total);

/* Appends VALUE to the list KEY of ARGUMENTS' provenance notes; EXIT_OTHER when memory runs out. */
int converter_note_append(const struct converter_arguments *arguments, const char *key,
                          const char *value);

/* Appends NAME (NULL: null, a class without a name) to the list SOURCE of the card member MEMBER
   ("classes": class names,
   "feature_names": the names of a source's columns) in ARGUMENTS' card (nothing without a card);
   EXIT_OTHER when memory runs out. */
int converter_card_name_append(const struct converter_arguments *arguments, const char *member,
                               const char *source, const char *name);

/* Tells ARGUMENTS' listener that DONE examples of the current stage are written. */
void converter_report_done(const struct converter_arguments *arguments, uint64_t done);

#endif
