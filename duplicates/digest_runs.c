/* Spills and merges sorted runs of digests (digest_runs.h). */
#include "digest_runs.h"

#include "common/base/error.h"
#include "duplicate_groups.h"
#include "sorted_runs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { BUFFERS_BYTES = 16 << 20 };

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
}

int digest_runs_spill(struct example_digests *digests)
{
    if (digests->runs == NULL) {
        if ((digests->runs = malloc(sizeof *digests->runs)) == NULL)
            return out_of_memory();
        sorted_runs_begin(digests->runs, sizeof *digests->records, example_record_order);
    }
    int result = sorted_runs_spill(digests->runs, digests->records, digests->count);
    digests->count = 0;
    return result;
}

/* Appends RECORD to DIGESTS' records, which hold only members of groups now. */
static int member_add(struct example_digests *digests, const struct example_record *record)
{
    if (digests->count == digests->capacity) {
        size_t capacity = digests->capacity > 0 ? 2 * digests->capacity : 4096;
        struct example_record *grown = realloc(digests->records, capacity * sizeof *grown);
        if (grown == NULL)
            return out_of_memory();
        digests->records = grown;
        digests->capacity = capacity;
    }
    digests->records[digests->count++] = *record;
    return EXIT_OK;
}

/* Merges the runs, keeping each record whose digest equals its neighbour's. */
static int runs_merge(struct example_digests *digests)
{
    struct example_record previous, record;
    bool have_previous = false, previous_kept = false, taken = true;
    int result = sorted_runs_merge(digests->runs, BUFFERS_BYTES);
    while (result == EXIT_OK && taken) {
        result = sorted_runs_next(digests->runs, &record, &taken);
        if (result != EXIT_OK || !taken)
            break;
        bool equal = have_previous &&
                     memcmp(record.digest, previous.digest, sizeof record.digest) == 0;
        if (equal && !previous_kept)
            result = member_add(digests, &previous);
        if (result == EXIT_OK && equal)
            result = member_add(digests, &record);
        previous_kept = equal;
        previous = record;
        have_previous = true;
    }
    return result;
}

int digest_runs_merge(struct example_digests *digests)
{
    if (digests->runs == NULL)
        return EXIT_OK;
    int result = digests->count > 0 ? digest_runs_spill(digests) : EXIT_OK;
    free(digests->records);
    digests->records = NULL;
    digests->count = digests->capacity = 0;
    return result == EXIT_OK ? runs_merge(digests) : result;
}

void digest_runs_free(struct sorted_runs *runs)
{
    if (runs == NULL)
        return;
    sorted_runs_free(runs);
    free(runs);
}
