/* The ILSVRC conversion's state and the steps its files share: ilsvrc.c (the passes, sources and
   splits), ilsvrc_sets.c (the training archive of per-class tars, the flat validation and test
   archives), ilsvrc_queue.c (images checked on workers, written in batches at their places),
   ilsvrc_patches.c (2010's replacement images). */
#ifndef FUEL_CONVERTERS_ILSVRC_CONVERSION_H
#define FUEL_CONVERTERS_ILSVRC_CONVERSION_H

#include "ilsvrc.h"
#include "ilsvrc_images.h"

#include "common/base/ordered_pool.h"
#include "common/formats/archive/sorted_members.h"

enum ilsvrc_split { SPLIT_TRAIN, SPLIT_VALID, SPLIT_TEST, SPLIT_COUNT };

/* Examples gathered for one point-selection write of each source. */
enum { BATCH_EXAMPLES = 256, BATCH_BYTES = 16 << 20 };

struct ilsvrc_batch {
    uint64_t places[BATCH_EXAMPLES];
    size_t offsets[BATCH_EXAMPLES];
    size_t lengths[BATCH_EXAMPLES];
    int16_t targets[BATCH_EXAMPLES];
    char filenames[BATCH_EXAMPLES][ILSVRC_FILENAME_BYTES];
    unsigned char *data;
    size_t used;
    size_t capacity;
    size_t count;
};

/* A replacement image of patch_images.tar: its split, its file name, its bytes. */
struct ilsvrc_patch {
    enum ilsvrc_split split;
    char *name;
    unsigned char *bytes;
    size_t size;
    bool used;
};

struct ilsvrc_conversion {
    const struct converter_arguments *arguments;
    const struct ilsvrc_layout *layout;
    const struct ilsvrc_options *options;
    struct h5py_writer *writer; /* NULL while --skip-bad's first pass only checks */
    struct ilsvrc_devkit devkit;
    int16_t *test_targets;      /* 2010: the test ground truth's classes */
    size_t test_target_count;
    int sources[3];             /* encoded_images, targets, filenames */
    uint64_t starts[SPLIT_COUNT];
    uint64_t kept[SPLIT_COUNT];  /* the examples written of each split */
    int64_t *permutation;        /* the training examples' places, by arrival */
    struct sorted_members *inner;               /* the per-class tar being read */
    struct sorted_members *listed[SPLIT_COUNT]; /* the validation and test archives' names */
    struct ilsvrc_patch *patches;
    size_t patch_count;
    /* --skip-bad: the labels of the images that do not decode, sorted once the first pass ends,
       and how many of each split. */
    char **bad;
    size_t bad_count;
    size_t bad_capacity;
    uint64_t bad_in[SPLIT_COUNT];
    bool checking;
    /* The images on their way. */
    struct ordered_pool *pool;
    struct ilsvrc_job *jobs;
    size_t job_count;
    size_t next_job;
    struct memory_budget budget; /* what the images' decodings take */
    uint64_t queued_bytes;       /* the members' bytes on their way */
    struct ilsvrc_batch batch;
    enum ilsvrc_split split;     /* of the images queued */
    uint64_t done;               /* images of the current split checked */
};

/* The path of the dataset's file FILE. */
void ilsvrc_path(const struct ilsvrc_conversion *conversion, size_t file, char *path, size_t size);

/* The job to fill next, its bytes to be read by the caller, its label set from LABEL. */
int ilsvrc_next_job(struct ilsvrc_conversion *conversion, const char *label,
                    struct ilsvrc_job **job);

/* Hands the job ilsvrc_next_job gave to the workers, once its bytes fit beside those of the jobs
   on their way (the older ones are written until they do). */
int ilsvrc_queue(struct ilsvrc_conversion *conversion, struct ilsvrc_job *job);

/* Waits for every queued image and writes what is gathered. */
int ilsvrc_drain(struct ilsvrc_conversion *conversion);

int ilsvrc_queue_start(struct ilsvrc_conversion *conversion);
void ilsvrc_queue_stop(struct ilsvrc_conversion *conversion);

/* Whether the image LABEL was found bad by --skip-bad's first pass. */
bool ilsvrc_is_bad(const struct ilsvrc_conversion *conversion, const char *label);

/* Sorts the bad images' labels, once the first pass has found them all. */
void ilsvrc_sort_bad(struct ilsvrc_conversion *conversion);

/* Reads every split's images: the training archive's per-class tars, then the validation and
   test archives, into their places (or, checking, only checks them). */
int ilsvrc_read_train(struct ilsvrc_conversion *conversion);
int ilsvrc_read_flat(struct ilsvrc_conversion *conversion, enum ilsvrc_split split);

/* 2010: reads patch_images.tar; the patch of member NAME of SPLIT, NULL when none. */
int ilsvrc_patches_read(struct ilsvrc_conversion *conversion);
struct ilsvrc_patch *ilsvrc_patch_find(struct ilsvrc_conversion *conversion,
                                       enum ilsvrc_split split, const char *name);
/* Every patch of SPLIT must have replaced an image. */
int ilsvrc_patches_check_used(const struct ilsvrc_conversion *conversion, enum ilsvrc_split split);
void ilsvrc_patches_free(struct ilsvrc_conversion *conversion);

#endif
