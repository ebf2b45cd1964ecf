/* What the two ways of placing CIFAR rows share: the conversion's state and the batch checks. */
#ifndef FUEL_CIFAR_CONVERSION_H
#define FUEL_CIFAR_CONVERSION_H

#include "cifar_batches.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/pickle/pickle_read.h"
#include "common/formats/spool.h"

enum {
    CIFAR_IMAGE_BYTES = 3 * 32 * 32,
    CIFAR_COPY_BYTES = 1 << 20,
};

struct cifar_batch {
    bool seen;
    uint64_t count;
    uint64_t spool_offset;
    unsigned char *labels[CIFAR_MAX_LABELS];
};

/* How rows reach the output: straight into place while every batch seen has its published
   count (DIRECT once a row is written), else through the spool. */
enum cifar_placing { CIFAR_TRYING, CIFAR_DIRECT, CIFAR_THROUGH_SPOOL };

struct cifar_conversion {
    const struct cifar_layout *layout;
    const struct converter_arguments *arguments;
    struct h5py_writer *writer;
    char path[4096];
    struct archive_stream *stream;
    struct spool *spool;
    unsigned char *buffer; /* CIFAR_COPY_BYTES */
    enum cifar_placing placing;
    int features; /* the writer's source, once declared */
    struct cifar_batch batches[CIFAR_MAX_MEMBERS];
};

/* What became of a member offered to cifar_direct_member. */
enum cifar_direct_outcome {
    CIFAR_PLACED,  /* its rows are in place and its labels held */
    CIFAR_SPOOLED, /* another count: its rows are in the spool and its labels held */
    CIFAR_SPOOL,   /* nothing of it was written: its first bytes are PREFIX, for the spool */
    CIFAR_RESTART, /* rows were written that cannot stay: convert again through the spool */
};

struct cifar_prefix {
    unsigned char *bytes; /* a mapping of the member's size; the caller unmaps it */
    uint64_t size;        /* mapped */
    uint64_t filled;      /* bytes of the member read into it */
};

/* Declares the features source of TOTAL rows. */
int cifar_declare_features(struct cifar_conversion *conversion, uint64_t total);

/* Takes the labels out of a parsed batch and finds its image rows (*ROWS). */
int cifar_extract_batch(const struct cifar_conversion *conversion,
                        const struct pickle_value *root, const char *name,
                        struct cifar_batch *batch, const struct pickle_array **rows);

/* Reads the member INDEX (SIZE bytes, NAME for messages) that the stream is at, placing its
   image rows straight into the features source when the batch turns out to hold the layout's
   count for it. */
int cifar_direct_member(struct cifar_conversion *conversion, int index, const char *name,
                        uint64_t size, enum cifar_direct_outcome *outcome,
                        struct cifar_prefix *prefix);

/* Unmaps PREFIX's bytes, if any. */
void cifar_prefix_release(struct cifar_prefix *prefix);

/* Frees BATCH's labels and forgets its count (not whether it was seen). */
void cifar_batch_forget(struct cifar_batch *batch);

#endif
