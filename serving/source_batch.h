/* One source's part of a batch: its split selection, the examples read in the plan's order and,
   for --dtype float32, converted to value * scale. */
#ifndef FUEL_SOURCE_BATCH_H
#define FUEL_SOURCE_BATCH_H

#include "common/h5py/h5py_direct.h"
#include "common/h5py/h5py_examples.h"
#include "buffer_pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source_batch {
    struct h5py_examples examples;
    struct h5py_selection selection;
    struct h5py_direct direct; /* pread instead of HDF5 when the layout allows */
    bool is_direct;
    unsigned char *resident;   /* the whole source, read once, when it fits the budget */
    bool to_float32;
    double scale;
    size_t example_bytes; /* as sent */
    char descr[8];        /* as sent */
    uint64_t *indices;    /* room for one batch's indices in the source */
    size_t indices_room;  /* bytes */
    unsigned char *stored; /* room for one batch as stored, before --dtype converts it */
    size_t stored_room;    /* bytes */
    struct buffer_pool *pool; /* the arrays of full batches, reused once sent */
};

/* Opens source NAME of FILE and its selection for SPLIT; TO_FLOAT32 converts it to value * SCALE.
   A source of at most *RESIDENT_BUDGET bytes is read once and kept (the budget shrinks). */
int source_batch_open(struct source_batch *source, const struct h5py_file *file,
                      const char *split, const char *name, bool to_float32, double scale,
                      size_t *resident_budget);

/* Keeps up to CAPACITY sent arrays of full batches of BATCH_SIZE examples for reuse: fresh
   memory costs page faults on every batch. EXIT_OTHER when out of memory. */
int source_batch_keep(struct source_batch *source, uint64_t batch_size, size_t capacity);

/* Closes the source; its pool lives on until ZeroMQ gives back every array it holds. */
void source_batch_close(struct source_batch *source);

/* Reads the split's examples NUMBERS[0..COUNT) into a new *ARRAY of *SIZE bytes, which goes back
   to *POOL (NULL: free) once sent. CONSECUTIVE says the numbers follow each other (a single
   range read when the split is contiguous). */
int source_batch_read(struct source_batch *source, const uint64_t *numbers, uint64_t count,
                      bool consecutive, void **array, size_t *size, struct buffer_pool **pool);

/* The shape of a batch of COUNT examples into SHAPE (rank entries). */
void source_batch_shape(const struct source_batch *source, uint64_t count, uint64_t *shape);

#endif
