/* How a split's examples are cut into shards for data-parallel ranks: the shard count from
   --shards, --shard-size or --shard-examples, made a multiple of --ranks, and each shard's share of
   the examples (counts differing by at most one, the larger shards first, none dropped). */
#ifndef FUEL_SHARD_PLAN_H
#define FUEL_SHARD_PLAN_H

#include <stdint.h>

/* --shard-size when no shard option is given: 256 MiB. */
#define SHARD_DEFAULT_SIZE ((uint64_t)256 << 20)

struct shard_request {
    uint64_t shards;         /* --shards; 0: not given */
    uint64_t shard_size;     /* --shard-size in bytes; 0: not given */
    uint64_t shard_examples; /* --shard-examples; 0: not given */
    uint64_t ranks;          /* --ranks; 0: not given (one rank) */
};

/* Checks the options among themselves: EXIT_USAGE naming the two that conflict (at most one of
   --shards, --shard-size and --shard-examples). */
int shard_request_check(const struct shard_request *request);

/* The number of shards of SPLIT, EXAMPLES examples of about BYTES in all: --shards N, or the
   examples over --shard-examples, or the bytes over --shard-size (default 256 MiB), rounded up;
   then rounded up to a multiple of --ranks. A count derived from a size or an example count that
   would exceed the examples becomes the largest multiple of --ranks that does not. EXIT_USAGE
   naming SPLIT when --ranks, or --shards (made a multiple of --ranks), is more than the examples.
   A split without examples and neither option has one empty shard. */
int shard_count(const struct shard_request *request, const char *split, uint64_t examples,
                uint64_t bytes, uint64_t *count);

/* Shard INDEX of COUNT holds the examples [*FIRST, *FIRST + *SIZE) of the split's order: the
   EXAMPLES % COUNT first shards one more than the others. Rank r of R reads shards r, r + R, ...
   (webdataset's split_by_node, tf.data's shard), so the ranks' shares differ by at most one. */
void shard_range(uint64_t examples, uint64_t count, uint64_t index, uint64_t *first,
                 uint64_t *size);

#endif
