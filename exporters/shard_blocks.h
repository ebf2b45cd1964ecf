/* Reads a split's examples block by block in the order of the shards (the split's order, or a
   permutation of it), encodes them on worker threads (PNG images, JPEG checks, the form's own
   bytes) and hands them to a consumer in that order, from the calling thread. Memory: at most
   SHARD_BLOCKS_DEPTH blocks of about 1 MiB of examples each, with their encodings. */
#ifndef FUEL_SHARD_BLOCKS_H
#define FUEL_SHARD_BLOCKS_H

#include "common/formats/png/png_encode.h"
#include "shard_sources.h"

#include <stddef.h>
#include <stdint.h>

/* Blocks in flight: the workers' blocks and the one being read or written. */
#define SHARD_BLOCKS_DEPTH 17

/* One source of one example, ready for a form. */
struct shard_payload {
    const uint8_t *data; /* PNG bytes, the stored JPEG bytes, or the example's elements */
    size_t size;
    uint64_t shape[H5PY_VLEN_MAX_RANK]; /* the example's shape (arrays) */
    int rank;
    uint32_t width, height, channels; /* images */
    int64_t label;                    /* SHARD_LABEL */
};

struct shard_run;

struct shard_block {
    struct shard_run *run;
    const struct shard_sources *sources;
    uint64_t first;   /* the position of its first example in the shards' order */
    size_t count;
    size_t capacity;
    uint64_t *keys;   /* each example's index in the split */
    uint64_t *stored; /* scratch: the indices in the sources */
    uint64_t *sizes;  /* scratch: stored examples' sizes */
    void **scratch;   /* scratch: stored examples as read */
    unsigned char **raw;        /* per source: fixed sources' examples */
    void **vlen;                /* count x sources: variable-length examples */
    struct shard_payload *payloads; /* count x sources */
    struct png_bytes *pngs;         /* count x sources */
    struct image image;
    /* What the form's encoder made of each example: bytes [ends[i - 1], ends[i]) of output. */
    unsigned char *output;
    size_t output_size, output_capacity;
    size_t *ends;
    void *form_state;
};

/* The payload of source SOURCE of the block's example INDEX. */
const struct shard_payload *shard_block_payload(const struct shard_block *block, size_t index,
                                                size_t source);

/* Appends SIZE bytes (DATA, or zeros when NULL) to the block's output; *AT receives where they
   went. EXIT_OTHER when memory runs out. */
int shard_block_output(struct shard_block *block, const void *data, size_t size,
                       unsigned char **at);

struct shard_form_coder {
    bool probe_jpeg; /* fill width, height and channels of stored JPEGs */
    /* Run on a worker: turns example INDEX's payloads into output bytes; NULL when none. */
    int (*encode)(void *context, struct shard_block *block, size_t index);
    void (*state_free)(void *state); /* frees a block's form_state */
    void *context;
};

struct shard_pipeline {
    struct shard_sources *sources;
    uint64_t examples;     /* in the split */
    const int64_t *order;  /* position -> index in the split; NULL: the split's order */
    unsigned threads;
    struct shard_form_coder coder;
    /* Called in order for every example of every block, from the calling thread. */
    int (*consume)(void *context, const struct shard_block *block, size_t index);
    void (*progress)(void *context, uint64_t done, uint64_t total);
    void *context;
};

int shard_blocks_run(const struct shard_pipeline *pipeline);

#endif
