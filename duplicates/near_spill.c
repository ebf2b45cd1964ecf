/* The near search of spilled examples (near_spill.h). First the examples of equal hashes are
   joined and all but the first left out; then for each block in turn the hashes are read back a
   chunk at a time, each chunk sorted by the block's value and spilled as a run, and the runs
   merged, so that the examples of equal blocks come out together and are compared as the
   in-memory search compares them. The blocks are searched on threads, each taking the next block
   with scratch files and a union-find of its own, merged at the end. The groups, the connected
   components of the pairs found, do not depend on the order pairs are found in, so they are
   those of near_groups.c, whatever the threads. */
#include "near_spill.h"

#include "common/base/error.h"
#include "common/base/threads.h"
#include "common/formats/spool.h"
#include "duplicate_groups.h"
#include "near_blocks.h"
#include "sorted_runs.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The examples a thread sorts in memory at a time (2.5 MiB of entries, as much again inside
   qsort, 2 MiB of hashes read back), and the buffers its runs are merged through. */
enum { CHUNK_ENTRIES = 1 << 16, MERGE_BYTES = 4 << 20 };

struct near_spill {
    struct spool *records; /* each example's record, in the order added */
    struct spool *hashes;  /* and its hash */
    uint64_t count;
};

/* One example in a run: its block's value (the equal-hash pass: its hash's first 32 bits), its
   number and its hash. */
struct search_entry {
    uint32_t key;
    uint32_t member;
    struct perceptual_hash hash;
};

/* A member of a group, as gathered: its record (first, so that example_record_order sorts these
   too) and its hash. */
struct member_entry {
    struct example_record record;
    struct perceptual_hash hash;
};

/* What the threads share: the examples, which hold hashes met before (written by the first
   pass alone), the next block to search. */
struct spill_shared {
    const struct near_spill *spill;
    const unsigned char *repeated; /* a bit per example: its hash is an earlier example's */
    size_t chunk_entries;          /* CHUNK_ENTRIES, or the fewer examples a test holds */
    unsigned threshold;
    unsigned blocks;
    atomic_uint next_block;
    atomic_uint searched;                  /* passes done, the equal-hash pass among them */
    const struct stage_listener *listener; /* told by the first thread; NULL: nobody */
};

/* One thread's search: its runs, buffers and union-find. */
struct spill_search {
    struct spill_shared *shared;
    unsigned char *repeated; /* the first pass: SHARED's bits, written */
    struct sorted_runs runs;
    uint32_t *parents;
    struct perceptual_hash *hashes; /* a chunk read back */
    struct search_entry *chunk;
    struct search_entry *equal; /* the entries of one key being compared */
    unsigned *distances;        /* from one of them to those before it */
    size_t equal_count, equal_capacity;
    unsigned first_bit, bits;   /* the block searched; no bits: the equal-hash pass */
    int result;
    char message[1024];         /* its failure's, on its own thread */
};

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
}

static bool bit_get(const unsigned char *bits, uint64_t index)
{
    return (bits[index / 8] >> (index % 8)) & 1;
}

static void bit_set(unsigned char *bits, uint64_t index)
{
    bits[index / 8] |= (unsigned char)(1u << (index % 8));
}

int near_spill_append(struct example_digests *digests)
{
    if (digests->spill == NULL && (digests->spill = calloc(1, sizeof *digests->spill)) == NULL)
        return out_of_memory();
    struct near_spill *spill = digests->spill;
    int result = spill->records == NULL ? spool_create(&spill->records, NULL) : EXIT_OK;
    if (result == EXIT_OK && spill->hashes == NULL)
        result = spool_create(&spill->hashes, NULL);
    if (result == EXIT_OK)
        result = spool_append(spill->records, digests->records,
                              digests->count * sizeof *digests->records, NULL);
    if (result == EXIT_OK)
        result = spool_append(spill->hashes, digests->hashes,
                              digests->count * sizeof *digests->hashes, NULL);
    if (result == EXIT_OK)
        spill->count += digests->count;
    digests->count = 0;
    return result;
}

static int hash_entry_order(const void *left, const void *right)
{
    const struct search_entry *a = left, *b = right;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    int order = memcmp(a->hash.words, b->hash.words, sizeof a->hash.words);
    return order != 0 ? order : (a->member < b->member ? -1 : a->member > b->member);
}

static int block_entry_order(const void *left, const void *right)
{
    const struct search_entry *a = left, *b = right;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->member < b->member ? -1 : a->member > b->member;
}

/* The runs of one pass: every example not repeated, a chunk at a time, keyed and sorted. */
static int chunks_spill(struct spill_search *search)
{
    int result = sorted_runs_reset(&search->runs);
    search->runs.order = search->bits == 0 ? hash_entry_order : block_entry_order;
    uint64_t total = search->shared->spill->count;
    size_t entries = search->shared->chunk_entries;
    for (uint64_t first = 0; result == EXIT_OK && first < total; first += entries) {
        size_t count = total - first < entries ? (size_t)(total - first) : entries;
        result = spool_read(search->shared->spill->hashes, first * sizeof *search->hashes,
                            search->hashes, count * sizeof *search->hashes);
        size_t kept = 0;
        for (size_t index = 0; result == EXIT_OK && index < count; index++) {
            const struct perceptual_hash *hash = &search->hashes[index];
            if (bit_get(search->shared->repeated, first + index))
                continue;
            search->chunk[kept++] = (struct search_entry){
                .key = search->bits == 0
                           ? (uint32_t)hash->words[0]
                           : near_block_value(hash, search->first_bit, search->bits),
                .member = (uint32_t)(first + index), .hash = *hash};
        }
        if (result == EXIT_OK && kept > 0)
            result = sorted_runs_spill(&search->runs, search->chunk, kept);
    }
    return result;
}

/* Whether ENTRY belongs with the entries gathered: the same key (and hash, for equal hashes). */
static bool same_run(const struct spill_search *search, const struct search_entry *entry)
{
    const struct search_entry *first = &search->equal[0];
    return first->key == entry->key &&
           (search->bits > 0 || memcmp(&first->hash, &entry->hash, sizeof entry->hash) == 0);
}

/* Joins the entries gathered: equal hashes to the first, which alone is searched from now on;
   of one block, every two within the threshold. */
static void equal_compare(struct spill_search *search)
{
    const struct search_entry *equal = search->equal;
    for (size_t index = 1; index < search->equal_count; index++) {
        if (search->bits == 0) {
            near_join(search->parents, equal[index].member, equal[0].member);
            bit_set(search->repeated, equal[index].member);
            continue;
        }
        perceptual_hash_distances(&equal[index].hash, &equal[0].hash, sizeof *equal, index,
                                  search->distances);
        for (size_t other = 0; other < index; other++)
            if (search->distances[other] <= search->shared->threshold)
                near_join(search->parents, equal[index].member, equal[other].member);
    }
    search->equal_count = 0;
}

static int equal_add(struct spill_search *search, const struct search_entry *entry)
{
    if (search->equal_count == search->equal_capacity) {
        size_t capacity = search->equal_capacity > 0 ? 2 * search->equal_capacity : 256;
        struct search_entry *grown = realloc(search->equal, capacity * sizeof *grown);
        if (grown != NULL)
            search->equal = grown;
        unsigned *distances = realloc(search->distances, capacity * sizeof *distances);
        if (distances != NULL)
            search->distances = distances;
        if (grown == NULL || distances == NULL)
            return out_of_memory();
        search->equal_capacity = capacity;
    }
    search->equal[search->equal_count++] = *entry;
    return EXIT_OK;
}

/* One pass: the runs spilled, merged, and each key's entries compared. */
static int pass_search(struct spill_search *search)
{
    int result = chunks_spill(search);
    if (result == EXIT_OK)
        result = sorted_runs_merge(&search->runs, MERGE_BYTES);
    struct search_entry entry;
    for (bool taken = true; result == EXIT_OK && taken;) {
        result = sorted_runs_next(&search->runs, &entry, &taken);
        if (result == EXIT_OK && search->equal_count > 0 && (!taken || !same_run(search, &entry)))
            equal_compare(search);
        if (result == EXIT_OK && taken)
            result = equal_add(search, &entry);
    }
    return result;
}

static int member_add(struct member_entry **members, size_t *count, size_t *capacity,
                      const struct member_entry *member)
{
    if (*count == *capacity) {
        size_t grown_capacity = *capacity > 0 ? 2 * *capacity : 256;
        struct member_entry *grown = realloc(*members, grown_capacity * sizeof *grown);
        if (grown == NULL)
            return out_of_memory();
        *members = grown;
        *capacity = grown_capacity;
    }
    (*members)[(*count)++] = *member;
    return EXIT_OK;
}

/* Reads back the records and hashes of the examples in groups (GROUPED marks the roots with
   members), each record's digest its root's number (big-endian, as near_groups.c writes it). */
static int members_read(const struct spill_search *search, const unsigned char *grouped,
                        struct example_record *records, struct member_entry **members,
                        size_t *count)
{
    const struct near_spill *spill = search->shared->spill;
    size_t capacity = 0, entries = search->shared->chunk_entries;
    int result = EXIT_OK;
    for (uint64_t first = 0; result == EXIT_OK && first < spill->count; first += entries) {
        size_t chunk = spill->count - first < entries ? (size_t)(spill->count - first) : entries;
        result = spool_read(spill->records, first * sizeof *records, records,
                            chunk * sizeof *records);
        if (result == EXIT_OK)
            result = spool_read(spill->hashes, first * sizeof *search->hashes, search->hashes,
                                chunk * sizeof *search->hashes);
        for (size_t index = 0; result == EXIT_OK && index < chunk; index++) {
            uint32_t member = (uint32_t)(first + index), root = search->parents[member];
            if (root == member && !bit_get(grouped, member))
                continue;
            struct member_entry made = {.record = records[index], .hash = search->hashes[index]};
            memset(made.record.digest, 0, sizeof made.record.digest);
            for (int byte = 0; byte < 4; byte++)
                made.record.digest[byte] = (unsigned char)(root >> (24 - 8 * byte));
            result = member_add(members, count, &capacity, &made);
        }
    }
    return result;
}

/* Leaves in DIGESTS the members of the groups SEARCH's union-find holds, each group's together,
   groups in the order of their first member; GROUPED is a bit per example to write. */
static int members_gather(struct example_digests *digests, struct spill_search *search,
                          unsigned char *grouped)
{
    uint64_t total = search->shared->spill->count;
    memset(grouped, 0, (size_t)(total / 8 + 1));
    for (uint64_t index = 0; index < total; index++) {
        search->parents[index] = search->parents[search->parents[index]];
        if (search->parents[index] != index)
            bit_set(grouped, search->parents[index]);
    }
    struct member_entry *members = NULL;
    size_t count = 0;
    struct example_record *records = malloc(CHUNK_ENTRIES * sizeof *records);
    int result = records != NULL ? members_read(search, grouped, records, &members, &count)
                                 : out_of_memory();
    free(records);
    if (result == EXIT_OK && count > 0)
        qsort(members, count, sizeof *members, example_record_order);
    digests->records = malloc((count > 0 ? count : 1) * sizeof *digests->records);
    digests->hashes = malloc((count > 0 ? count : 1) * sizeof *digests->hashes);
    if (result == EXIT_OK && (digests->records == NULL || digests->hashes == NULL))
        result = out_of_memory();
    for (size_t index = 0; result == EXIT_OK && index < count; index++) {
        digests->records[index] = members[index].record;
        digests->hashes[index] = members[index].hash;
    }
    digests->count = digests->capacity = result == EXIT_OK ? count : 0;
    free(members);
    return result;
}

/* A thread's memory: a parent per example (each its own, or PARENTS), a chunk's hashes and
   entries. */
static int search_begin(struct spill_search *search, struct spill_shared *shared,
                        uint32_t *parents)
{
    uint64_t total = shared->spill->count;
    *search = (struct spill_search){.shared = shared, .parents = parents};
    if (search->parents == NULL)
        search->parents = malloc((size_t)(total > 0 ? total : 1) * sizeof *search->parents);
    search->hashes = malloc(CHUNK_ENTRIES * sizeof *search->hashes);
    search->chunk = malloc(CHUNK_ENTRIES * sizeof *search->chunk);
    sorted_runs_begin(&search->runs, sizeof(struct search_entry), block_entry_order);
    if (search->parents == NULL || search->hashes == NULL || search->chunk == NULL)
        return out_of_memory();
    for (uint64_t index = 0; parents == NULL && index < total; index++)
        search->parents[index] = (uint32_t)index;
    return EXIT_OK;
}

static void search_free(struct spill_search *search, bool parents)
{
    sorted_runs_free(&search->runs);
    if (parents)
        free(search->parents);
    free(search->hashes);
    free(search->chunk);
    free(search->equal);
    free(search->distances);
}

/* Searches the blocks not yet taken, one after another, keeping the first failure's message. */
static void *blocks_search(void *argument)
{
    struct spill_search *search = argument;
    struct spill_shared *shared = search->shared;
    for (unsigned block; search->result == EXIT_OK &&
                         (block = atomic_fetch_add(&shared->next_block, 1)) < shared->blocks;) {
        near_block_bounds(block, shared->blocks, &search->first_bit, &search->bits);
        search->result = pass_search(search);
        unsigned searched = atomic_fetch_add(&shared->searched, 1) + 1;
        /* the first thread (the one holding the bits to write) tells */
        if (search->result == EXIT_OK && search->repeated != NULL && shared->listener != NULL)
            shared->listener->advance(shared->listener->context, searched);
    }
    if (search->result != EXIT_OK)
        snprintf(search->message, sizeof search->message, "%s", error_message());
    return NULL;
}

/* The blocks searched on THREADS threads, this one and those of SEARCHES[1, THREADS) (fewer
   when one cannot start or memory is short), their unions merged into SEARCHES[0]'s. */
static int threads_search(struct spill_search *searches, unsigned threads)
{
    pthread_t started[THREADS_MAX];
    unsigned made = 1, running = 0;
    while (made < threads && search_begin(&searches[made], searches[0].shared, NULL) == EXIT_OK)
        made++;
    if (made < threads)
        search_free(&searches[made], true); /* the one that could not begin */
    while (running + 1 < made &&
           threads_start(&started[running], blocks_search, &searches[running + 1]) == 0)
        running++;
    blocks_search(&searches[0]);
    int result = searches[0].result;
    for (unsigned thread = 0; thread < running; thread++) {
        pthread_join(started[thread], NULL);
        struct spill_search *search = &searches[thread + 1];
        if (result == EXIT_OK && search->result != EXIT_OK)
            result = error_set(search->result, "%s", search->message);
        near_unions_merge(searches[0].parents, search->parents, searches[0].shared->spill->count);
    }
    for (unsigned thread = 1; thread < made; thread++)
        search_free(&searches[thread], true);
    return result;
}

int near_spill_gather(struct example_digests *digests, unsigned threshold, unsigned threads,
                      const struct stage_listener *listener)
{
    int result = digests->count > 0 ? near_spill_append(digests) : EXIT_OK;
    free(digests->records);
    free(digests->hashes);
    *digests = (struct example_digests){.total = digests->total, .spill = digests->spill,
                                        .memory_limit = digests->memory_limit};
    uint64_t total = digests->spill->count;
    size_t limit = digests->memory_limit;
    struct spill_shared shared = {
        .spill = digests->spill, .threshold = threshold, .blocks = near_block_count(threshold),
        .listener = listener,
        .chunk_entries = limit > 0 && limit < CHUNK_ENTRIES ? limit : CHUNK_ENTRIES};
    unsigned char *repeated = calloc((size_t)(total / 8 + 1), 1);
    shared.repeated = repeated;
    uint32_t *parents = malloc((size_t)(total > 0 ? total : 1) * sizeof *parents);
    for (uint64_t index = 0; parents != NULL && index < total; index++)
        parents[index] = (uint32_t)index;
    struct spill_search searches[THREADS_MAX];
    int begun = search_begin(&searches[0], &shared, parents);
    if (result == EXIT_OK)
        result = begun != EXIT_OK ? begun : repeated == NULL ? out_of_memory() : EXIT_OK;
    searches[0].repeated = repeated;
    searches[0].runs.order = hash_entry_order;
    if (result == EXIT_OK && listener != NULL)
        listener->stage(listener->context, "--near search", shared.blocks + 1, "passes");
    if (result == EXIT_OK)
        result = pass_search(&searches[0]); /* equal hashes: the blocks search one of each */
    if (result == EXIT_OK && listener != NULL)
        listener->advance(listener->context, atomic_fetch_add(&shared.searched, 1) + 1);
    threads = threads == 0 ? threads_default() : threads > THREADS_MAX ? THREADS_MAX : threads;
    if (result == EXIT_OK)
        result = threads_search(searches, threads);
    if (result == EXIT_OK)
        result = members_gather(digests, &searches[0], repeated);
    search_free(&searches[0], true);
    free(repeated);
    return result;
}

void near_spill_free(struct near_spill *spill)
{
    if (spill == NULL)
        return;
    if (spill->records != NULL)
        spool_close(spill->records);
    if (spill->hashes != NULL)
        spool_close(spill->hashes);
    free(spill);
}
