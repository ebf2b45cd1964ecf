/* What the ILSVRC2012 and ILSVRC2010 converters share (Fuel's ilsvrc2010.py holds the code both
   of Fuel's converters run): the devkit's synsets and ground truth and the conversion of the
   image archives, each as the dataset's layout (downloaders/ilsvrc.h) tells them apart. */
#ifndef FUEL_CONVERTERS_ILSVRC_H
#define FUEL_CONVERTERS_ILSVRC_H

#include "converter.h"
#include "downloaders/ilsvrc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The synsets a devkit may declare: their ids are numpy int16 in Fuel. */
#define ILSVRC_MAX_SYNSETS 32767
#define ILSVRC_MAX_WNID 63
/* Fuel maps the WNIDs of the first 1000 synsets to the classes 0..999. */
#define ILSVRC_CLASSES 1000

/* The dataset options of both: --shuffle-seed and --skip-bad. */
struct ilsvrc_options {
    long shuffle_seed;
    bool skip_bad;
};

extern const struct command_option ilsvrc_option_table[2];
extern const struct ilsvrc_options ilsvrc_option_defaults;

/* The devkit's facts: each synset's id (by position), the WNIDs of the first ILSVRC_CLASSES,
   the training images their counts add up to, and the validation set's classes. */
struct ilsvrc_devkit {
    size_t synset_count;
    int16_t *ids;
    char (*wnids)[ILSVRC_MAX_WNID + 1];
    size_t class_count;        /* min(synset_count, ILSVRC_CLASSES) */
    uint64_t train_images;     /* the sum of num_train_images */
    int16_t *valid_targets;    /* the position of each validation image's synset */
    size_t valid_count;
};

/* Reads the devkit archive PATH as LAYOUT names its members. EXIT_CORRUPT_INPUT naming the member
   when one is missing or malformed. */
int ilsvrc_devkit_read(const char *path, const struct ilsvrc_layout *layout, unsigned threads,
                       struct ilsvrc_devkit *devkit);

/* The positions of the synsets whose ids the text at TEXT (SIZE bytes, one integer a line, as
   numpy.loadtxt reads them) names, into *TARGETS (malloc'd) of *COUNT. LABEL names the text. */
int ilsvrc_truth_parse(const struct ilsvrc_devkit *devkit, const char *text, size_t size,
                       const char *label, int16_t **targets, size_t *count);

/* The class of the per-class tar whose WNID is WNID; -1 when no synset of the first 1000 has it. */
int ilsvrc_class_of(const struct ilsvrc_devkit *devkit, const char *wnid);

void ilsvrc_devkit_free(struct ilsvrc_devkit *devkit);

/* Converts the archives of ARGUMENTS' dataset as LAYOUT says into WRITER. */
int ilsvrc_convert(const struct converter_arguments *arguments, const struct ilsvrc_layout *layout,
                   struct h5py_writer *writer);

#endif
