/* What the shard forms (webdataset, tfrecord) share: the check of every split before the first
   byte, the shard counts, the seeded order, the pipeline, shard after shard into the split's set,
   and SPLIT.json listing the shards, the sources and the provenance. */
#ifndef FUEL_SHARD_EXPORT_H
#define FUEL_SHARD_EXPORT_H

#include "export_form.h"
#include "shard_blocks.h"
#include "shard_file.h"

#include <jansson.h>
#include <stdint.h>

struct shard_writer;

struct shard_format {
    const char *name;
    /* The file name of shard INDEX of COUNT of SPLIT. */
    void (*shard_name)(char *name, size_t size, const char *split, uint64_t index,
                       uint64_t count);
    bool probe_jpeg;
    int (*encode)(void *context, struct shard_block *block, size_t index); /* on a worker */
    void (*state_free)(void *state);
    /* The bytes example INDEX takes in a shard, for --shard-size's estimate. */
    uint64_t (*example_bytes)(const struct shard_sources *sources,
                              const struct shard_block *block, size_t index);
    int (*shard_begin)(struct shard_writer *writer);
    int (*example_write)(struct shard_writer *writer, const struct shard_block *block,
                         size_t index);
    int (*shard_end)(struct shard_writer *writer); /* before the file is closed */
    void (*shard_abandon)(struct shard_writer *writer);
    /* What SPLIT.json says the source becomes ("member", "features"). */
    void (*source_describe)(const struct shard_sources *sources, size_t index, json_t *entry);
};

struct shard_writer {
    const struct shard_format *format;
    const struct shard_sources *sources;
    struct shard_file file;
    int64_t mtime;    /* of tar members: SOURCE_DATE_EPOCH, else the input's creation time */
    void *state;      /* the form's, for the shard being written */
};

/* Checks the request and every split, and counts their shards, before anything is written. */
int shard_export_prepare(struct export_job *job, const struct shard_format *format);

/* Writes the job's split as shards, keeping what SPLIT.json will say of them. */
int shard_export_write(struct export_job *job, const struct shard_format *format);

/* Writes the job's SPLIT.json once its shards are staged (export_form's listing). */
int shard_export_listing(struct export_job *job);

void shard_export_finish(struct export_job *job);

#endif
