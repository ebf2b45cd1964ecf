/* Shard counts and shares for data-parallel ranks. */
#include "shard_plan.h"

#include "common/base/error.h"

int shard_request_check(const struct shard_request *request)
{
    const char *given[3];
    int count = 0;
    if (request->shards)
        given[count++] = "--shards";
    if (request->shard_size)
        given[count++] = "--shard-size";
    if (request->shard_examples)
        given[count++] = "--shard-examples";
    if (count > 1)
        return error_set(EXIT_USAGE, "%s and %s conflict: give one of --shards, --shard-size and "
                         "--shard-examples", given[0], given[1]);
    return EXIT_OK;
}

static uint64_t divide_up(uint64_t value, uint64_t divisor)
{
    return value / divisor + (value % divisor != 0);
}

int shard_count(const struct shard_request *request, const char *split, uint64_t examples,
                uint64_t bytes, uint64_t *count)
{
    uint64_t ranks = request->ranks ? request->ranks : 1;
    if (request->ranks > examples)
        return error_set(EXIT_USAGE, "--ranks %llu is more than the %llu examples of split %s",
                         (unsigned long long)ranks, (unsigned long long)examples, split);
    if (examples == 0 && request->shards == 0) {
        *count = 1;
        return EXIT_OK;
    }
    uint64_t shards = request->shards;
    if (request->shard_examples)
        shards = divide_up(examples, request->shard_examples);
    else if (shards == 0)
        shards = divide_up(bytes, request->shard_size ? request->shard_size : SHARD_DEFAULT_SIZE);
    shards = divide_up(shards ? shards : 1, ranks) * ranks;
    if (shards > examples && request->shards)
        return error_set(EXIT_USAGE, "--shards %llu%s is more than the %llu examples of split %s",
                         (unsigned long long)shards, ranks > 1 ? " (a multiple of --ranks)" : "",
                         (unsigned long long)examples, split);
    if (shards > examples)
        shards = examples / ranks * ranks;
    *count = shards;
    return EXIT_OK;
}

void shard_range(uint64_t examples, uint64_t count, uint64_t index, uint64_t *first,
                 uint64_t *size)
{
    uint64_t share = examples / count, larger = examples % count;
    *first = index * share + (index < larger ? index : larger);
    *size = share + (index < larger);
}
