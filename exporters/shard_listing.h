/* SPLIT.json: a shard set's listing (each shard's name, examples, rank, size and sha256), its
   sources with dtypes and shapes and what each became, the order and the provenance. */
#ifndef FUEL_SHARD_LISTING_H
#define FUEL_SHARD_LISTING_H

#include "common/base/hash.h"
#include "shard_export.h"

struct shard_record {
    uint64_t bytes;
    char sha256[HASH_HEX_SIZE];
};

struct shard_listing {
    const struct shard_format *format;
    const struct shard_sources *sources;
    uint64_t examples;
    uint64_t shard_count;
    const struct shard_record *records;
    uint64_t ranks;
    bool shuffle;
    uint32_t seed;
    int64_t mtime;
};

/* Writes LISTING as the job's SPLIT.json (the set's main file). */
int shard_listing_write(struct export_job *job, const struct shard_listing *listing);

#endif
