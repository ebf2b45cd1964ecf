/* The reader thread: opens an H5PYDataset file, plans each epoch's batches and reads them ahead
   of the socket into a bounded queue. Every HDF5 call of a serving process happens in it. */
#ifndef FUEL_BATCH_READER_H
#define FUEL_BATCH_READER_H

#include "batch_queue.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct serve_request {
    const char *path;
    const char *split;
    const char *sources[SERVED_SOURCES_MAX]; /* in message order; none: all of the split's */
    size_t source_count;
    bool to_float32;                          /* --dtype float32: converted as value * scale */
    double scale;
    const char *converted[SERVED_SOURCES_MAX]; /* which sources; none: features, else all */
    size_t converted_count;
    uint64_t batch_size;
    bool shuffle;
    uint64_t seed;
    uint64_t epochs;       /* 0: forever */
    uint64_t part, parts;  /* the share K/N, 1-based */
    size_t queue_capacity; /* batches read ahead */
};

/* What the reader found, for the line a server prints. The names live until batch_reader_stop. */
struct serving_facts {
    uint64_t examples;        /* in the split */
    uint64_t share_examples;  /* in this server's share of each epoch */
    uint64_t batches_per_epoch;
    size_t source_count;
    const char *sources[SERVED_SOURCES_MAX];
    char descrs[SERVED_SOURCES_MAX][8]; /* numpy dtype strings as sent */
};

struct batch_reader;

/* Starts the reader thread and waits until it opened REQUEST's file and checked the split and
   sources: EXIT_MISSING_INPUT / EXIT_CORRUPT_INPUT for a missing or bad file, EXIT_USAGE for a
   missing split or source, a variable-length source or a bad share, the error set in this
   thread. REQUEST's strings must outlive the reader. */
int batch_reader_start(struct batch_reader **reader, const struct serve_request *request,
                       struct serving_facts *facts);

/* The queue the reader fills: served batches, then the end of each epoch, then finished. */
struct batch_queue *batch_reader_queue(struct batch_reader *reader);

/* Stops the thread (it closes the file), frees what is queued and the reader; NULL is allowed. */
void batch_reader_stop(struct batch_reader *reader);

#endif
