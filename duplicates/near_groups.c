/* Multi-index hashing over the perceptual hashes, then the groups' members gathered
   (near_groups.h). Each block's runs of equal values are compared on THREADS threads, taking
   slices of the sorted keys in turn, each thread joining pairs in a union-find of its own; the
   threads' unions are merged at the end, and since a group's root is its least member, the
   groups do not depend on the thread count. Memory: per example its record and hash (56 bytes),
   a parent (4, and 4 more a thread beyond the first), a place in the order searched (4) and a
   sort key (8). */
#include "near_groups.h"

#include "common/base/error.h"
#include "common/base/threads.h"
#include "near_blocks.h"
#include "near_spill.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The sorted keys a thread takes at a time: it compares the runs that begin among them. */
enum { SLICE_KEYS = 4096 };

/* The search state: the hashes, the union-find parents and the examples searched (one of each
   hash). */
struct near_search {
    const struct perceptual_hash *hashes;
    uint32_t *parents;
    uint32_t *order;
    size_t count;    /* in ORDER: the examples of distinct hashes */
    size_t examples; /* all of them, the parents' count */
    unsigned threshold;
};

static int hash_order(const void *left, const void *right, void *context)
{
    const struct perceptual_hash *hashes = context;
    uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
    int order = memcmp(hashes[a].words, hashes[b].words, sizeof hashes[a].words);
    return order != 0 ? order : (a < b ? -1 : a > b);
}

/* Joins the examples of equal hashes at once and leaves in SEARCH's order one of each (so that
   a thousand copies of one blank image cost a thousand steps, not half a million). */
static void equal_hashes_join(struct near_search *search)
{
    qsort_r(search->order, search->count, sizeof *search->order, hash_order,
            (void *)search->hashes);
    size_t kept = 0;
    for (size_t index = 0; index < search->count; index++) {
        uint32_t member = search->order[index];
        if (kept > 0 && memcmp(&search->hashes[member], &search->hashes[search->order[kept - 1]],
                               sizeof search->hashes[member]) == 0)
            near_join(search->parents, member, search->order[kept - 1]);
        else
            search->order[kept++] = member;
    }
    search->count = kept;
}

/* Compares every two examples of one run of equal blocks, keys[first, next) (an example's
   number in each key's low 32 bits), joining those within the threshold in PARENTS. */
static void run_compare(const struct near_search *search, uint32_t *parents, const uint64_t *keys,
                        size_t first, size_t next)
{
    for (size_t index = first + 1; index < next; index++) {
        uint32_t member = (uint32_t)keys[index];
        for (size_t other = first; other < index; other++) {
            uint32_t candidate = (uint32_t)keys[other];
            if (perceptual_hash_distance(&search->hashes[member], &search->hashes[candidate]) <=
                search->threshold)
                near_join(parents, member, candidate);
        }
    }
}

/* One thread's share of a block: the slices it takes, its own union-find. */
struct slice_worker {
    const struct near_search *search;
    const uint64_t *keys;
    atomic_size_t *next_slice;
    uint32_t *parents;
};

/* Compares the runs of equal blocks that begin in slice after slice of the keys, until none is
   left. */
static void *slices_compare(void *argument)
{
    struct slice_worker *worker = argument;
    const uint64_t *keys = worker->keys;
    size_t count = worker->search->count;
    for (;;) {
        size_t slice = atomic_fetch_add(worker->next_slice, 1);
        if (slice >= (count + SLICE_KEYS - 1) / SLICE_KEYS)
            return NULL;
        size_t first = slice * SLICE_KEYS, end = first + SLICE_KEYS < count ? first + SLICE_KEYS
                                                                              : count;
        while (first < end && first > 0 && keys[first] >> 32 == keys[first - 1] >> 32)
            first++; /* the run begun in the slice before is that slice's */
        for (size_t next; first < end; first = next) {
            for (next = first + 1; next < count && keys[next] >> 32 == keys[first] >> 32; next++)
                ;
            if (next - first > 1)
                run_compare(worker->search, worker->parents, keys, first, next);
        }
    }
}

static int key_order(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

/* Sorts the examples by bits [FIRST_BIT, FIRST_BIT + BITS) of their hashes into KEYS (the block
   above, the example's number below) and compares those of equal blocks on the COUNT WORKERS
   (the first on this thread). */
static void block_search(struct near_search *search, uint64_t *keys, unsigned first_bit,
                         unsigned bits, struct slice_worker *workers, unsigned count)
{
    for (size_t index = 0; index < search->count; index++) {
        uint32_t member = search->order[index];
        keys[index] = (uint64_t)near_block_value(&search->hashes[member], first_bit, bits) << 32 |
                      member;
    }
    qsort(keys, search->count, sizeof *keys, key_order);
    atomic_size_t next_slice = 0;
    pthread_t threads[THREADS_MAX];
    unsigned started = 0;
    for (unsigned worker = 0; worker < count; worker++) {
        workers[worker].keys = keys;
        workers[worker].next_slice = &next_slice;
    }
    while (started + 1 < count &&
           threads_start(&threads[started], slices_compare, &workers[started + 1]) == 0)
        started++;
    slices_compare(&workers[0]);
    for (unsigned thread = 0; thread < started; thread++)
        pthread_join(threads[thread], NULL);
}

enum { ALONE = UINT32_MAX };

/* PARENTS flattened (each example's parent its group's root, its first member) and, in SLOTS,
   each root's first place among the members kept (ALONE for examples in no group); returns the
   number of members. */
static size_t places_count(uint32_t *parents, uint32_t *slots, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        parents[index] = parents[parents[index]]; /* a parent is always an earlier example */
        slots[index] = 0;
    }
    for (size_t index = 0; index < count; index++)
        if (parents[index] != index)
            slots[parents[index]]++;
    size_t kept = 0;
    for (size_t index = 0; index < count; index++) {
        if (parents[index] != index)
            continue;
        uint32_t others = slots[index];
        slots[index] = others == 0 ? ALONE : (uint32_t)kept;
        kept += others > 0 ? others + 1 : 0;
    }
    return kept;
}

/* Keeps in DIGESTS only the members of groups, each group's together in their order, each
   record's digest the number of its group's first member (big-endian: groups sort in order). */
static int members_keep(struct example_digests *digests, uint32_t *parents, uint32_t *slots)
{
    size_t kept = places_count(parents, slots, digests->count);
    struct example_record *records = malloc((kept > 0 ? kept : 1) * sizeof *records);
    struct perceptual_hash *hashes = malloc((kept > 0 ? kept : 1) * sizeof *hashes);
    if (records == NULL || hashes == NULL) {
        free(records);
        free(hashes);
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    }
    for (size_t index = 0; index < digests->count; index++) {
        uint32_t root = parents[index];
        if (slots[root] == ALONE)
            continue;
        uint32_t slot = slots[root]++;
        records[slot] = digests->records[index];
        memset(records[slot].digest, 0, sizeof records[slot].digest);
        for (int byte = 0; byte < 4; byte++)
            records[slot].digest[byte] = (unsigned char)(root >> (24 - 8 * byte));
        hashes[slot] = digests->hashes[index];
    }
    free(digests->records);
    free(digests->hashes);
    *digests = (struct example_digests){.records = records, .hashes = hashes, .count = kept,
                                        .capacity = kept};
    return EXIT_OK;
}

/* WORKERS[1, COUNT)'s parents, begun alone, made each for a thread beyond the first; fewer
   workers (at least one) when memory runs short. Returns how many there are. */
static unsigned workers_make(struct near_search *search, struct slice_worker *workers,
                             unsigned count)
{
    workers[0] = (struct slice_worker){.search = search, .parents = search->parents};
    size_t examples = search->examples > 0 ? search->examples : 1;
    unsigned made = 1;
    while (made < count && (workers[made].parents =
                                malloc(examples * sizeof *workers[made].parents)) != NULL) {
        workers[made].search = search;
        for (size_t index = 0; index < search->examples; index++)
            workers[made].parents[index] = (uint32_t)index;
        made++;
    }
    return made;
}

/* Merges the unions of WORKERS[1, COUNT) into the search's and frees them. */
static void workers_merge(struct near_search *search, struct slice_worker *workers,
                          unsigned count)
{
    for (unsigned worker = 1; worker < count; worker++) {
        near_unions_merge(search->parents, workers[worker].parents, search->examples);
        free(workers[worker].parents);
    }
}

int near_groups_gather(struct example_digests *digests, unsigned threshold, unsigned threads,
                       const struct stage_listener *listener)
{
    if (digests->spill != NULL)
        return near_spill_gather(digests, threshold, threads, listener);
    size_t count = digests->count > 0 ? digests->count : 1;
    struct near_search search = {.hashes = digests->hashes, .count = digests->count,
                                 .examples = digests->count, .threshold = threshold};
    search.parents = malloc(count * sizeof *search.parents);
    search.order = malloc(count * sizeof *search.order);
    uint64_t *keys = malloc(count * sizeof *keys);
    int result = EXIT_OK;
    if (search.parents == NULL || search.order == NULL || keys == NULL)
        result = error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    for (size_t index = 0; result == EXIT_OK && index < search.count; index++)
        search.parents[index] = search.order[index] = (uint32_t)index;
    if (result == EXIT_OK)
        equal_hashes_join(&search);
    threads = threads == 0 ? threads_default() : threads > THREADS_MAX ? THREADS_MAX : threads;
    struct slice_worker workers[THREADS_MAX];
    unsigned working = result == EXIT_OK ? workers_make(&search, workers, threads) : 0;
    unsigned blocks = near_block_count(threshold);
    for (unsigned block = 0; result == EXIT_OK && block < blocks; block++) {
        unsigned first_bit, bits;
        near_block_bounds(block, blocks, &first_bit, &bits);
        block_search(&search, keys, first_bit, bits, workers, working);
    }
    workers_merge(&search, workers, working);
    free(keys);
    if (result == EXIT_OK)
        result = members_keep(digests, search.parents, search.order);
    free(search.parents);
    free(search.order);
    return result;
}
