/* Batches of an epoch: consecutive positions of the epoch's order, within this server's share. */
#include "batch_plan.h"

#include "common/base/error.h"
#include "common/base/random.h"

/* SplitMix64's step as a hash of VALUE: the Feistel network's round function. */
static uint64_t mix(uint64_t value)
{
    struct random_state state = {value};
    return random_next(&state);
}

int batch_plan_init(struct batch_plan *plan, uint64_t examples, uint64_t batch_size, bool shuffle,
                    uint64_t seed, uint64_t part, uint64_t parts)
{
    *plan = (struct batch_plan){.examples = examples, .batch_size = batch_size,
                                .shuffle = shuffle, .seed = seed};
    if (parts == 0 || part == 0 || part > parts)
        return error_set(EXIT_USAGE, "bad share %llu/%llu: K/N needs 1 <= K <= N",
                         (unsigned long long)part, (unsigned long long)parts);
    if (batch_size == 0)
        return error_set(EXIT_USAGE, "the batch size must be at least 1");
    uint64_t quotient = examples / parts, remainder = examples % parts;
    uint64_t before = part - 1;
    plan->share_first = before * quotient + (before < remainder ? before : remainder);
    plan->share_count = quotient + (before < remainder ? 1 : 0);
    if (plan->share_count == 0)
        return error_set(EXIT_USAGE, "share %llu/%llu of %llu examples holds none",
                         (unsigned long long)part, (unsigned long long)parts,
                         (unsigned long long)examples);
    unsigned bits = 0;
    while (bits < 64 && (UINT64_C(1) << bits) < examples)
        bits++;
    plan->half_bits = (bits + 1) / 2;
    batch_plan_epoch(plan, 0);
    return EXIT_OK;
}

void batch_plan_epoch(struct batch_plan *plan, uint64_t epoch)
{
    struct random_state state;
    random_seed(&state, plan->seed, epoch);
    for (int round = 0; round < 4; round++)
        plan->round_keys[round] = random_next(&state);
}

uint64_t batch_plan_batches(const struct batch_plan *plan)
{
    return plan->share_count / plan->batch_size + (plan->share_count % plan->batch_size != 0);
}

/* One pass of the Feistel network over 2 * half_bits bits: a permutation of that range. */
static uint64_t feistel(const struct batch_plan *plan, uint64_t value)
{
    uint64_t mask = (UINT64_C(1) << plan->half_bits) - 1;
    uint64_t left = value >> plan->half_bits, right = value & mask;
    for (int round = 0; round < 4; round++) {
        uint64_t next = left ^ (mix(right ^ plan->round_keys[round]) & mask);
        left = right;
        right = next;
    }
    return (left << plan->half_bits) | right;
}

/* The example at POSITION (< examples) of the current epoch's order of the whole split. */
static uint64_t batch_plan_example(const struct batch_plan *plan, uint64_t position)
{
    if (!plan->shuffle || plan->examples < 2)
        return position;
    uint64_t example = feistel(plan, position);
    while (example >= plan->examples)
        example = feistel(plan, example);
    return example;
}

uint64_t batch_plan_batch(const struct batch_plan *plan, uint64_t number, uint64_t *numbers)
{
    uint64_t offset = number * plan->batch_size;
    if (offset >= plan->share_count)
        return 0;
    uint64_t count = plan->share_count - offset;
    if (count > plan->batch_size)
        count = plan->batch_size;
    for (uint64_t item = 0; item < count; item++)
        numbers[item] = batch_plan_example(plan, plan->share_first + offset + item);
    return count;
}
