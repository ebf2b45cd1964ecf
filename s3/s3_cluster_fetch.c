/* One node's fuel fetch into s3://: the object's presence, the choice of the fetching node by
   lease or rank, the fetch through the caller's callbacks and upload, or the wait. */
#include "s3_cluster_fetch.h"

#include "common/base/error.h"
#include "s3/s3_cluster.h"
#include "s3/s3_lease.h"
#include "s3/s3_publish.h"

#include <limits.h>
#include <stdio.h>

struct fetching {
    const struct s3_cluster_fetch *fetch;
    struct s3_publish publish;
    struct s3_lease lease;
    char *url;
    size_t size;
    enum s3_cluster_fetch_outcome *outcome;
};

/* The fetching node (WHO: "rank 0", "the lease holder"), the lease written: the raw files and
   the conversion in the local staging, then the upload, the lease renewed meanwhile and deleted
   after; a failure is recorded for the waiting nodes. */
static int node_fetch(struct fetching *fetching, const char *who)
{
    const struct s3_cluster_fetch *fetch = fetching->fetch;
    const char *staging = fetching->publish.staging.path;
    char path[PATH_MAX];
    int result = s3_lease_renew(&fetching->lease);
    if (result == EXIT_OK)
        result = s3_cluster_failure_clear(&fetching->publish, fetch->name);
    if (result == EXIT_OK)
        result = fetch->download(fetch->context, staging);
    if (result == EXIT_OK)
        result = fetch->convert(fetch->context, staging, path, sizeof path);
    if (result == EXIT_OK)
        result = s3_publish_file(&fetching->publish, path, fetching->url, fetching->size);
    if (result != EXIT_OK)
        s3_cluster_failure_record(&fetching->publish, fetch->name, who, error_message());
    s3_lease_release(&fetching->lease, true);
    *fetching->outcome = S3_FETCH_MADE;
    return result;
}

/* The node that took the lease: fetches, unless the object was published meanwhile (by the
   node whose lease it took after it was done). */
static int node_fetch_leased(struct fetching *fetching)
{
    bool present = false;
    int result = s3_publish_present(&fetching->publish, fetching->fetch->name, &present,
                                    fetching->url, fetching->size);
    if (result == EXIT_OK && !present)
        return node_fetch(fetching, "the lease holder");
    s3_lease_release(&fetching->lease, true);
    *fetching->outcome = S3_FETCH_WAITED;
    return result;
}

/* A node that does not fetch (by lease, or of a rank other than 0, RANK not negative): waits
   for the object, or fetches when it took over a stale lease. */
static int node_wait(struct fetching *fetching, long rank)
{
    const struct s3_cluster_fetch *fetch = fetching->fetch;
    const struct s3_location *location = &fetching->publish.location;
    char line[PATH_MAX + 128], whom[64] = "the node holding the lease";
    if (rank >= 0)
        snprintf(whom, sizeof whom, "rank %ld: waiting for rank 0", rank);
    snprintf(line, sizeof line, "%s: %s%s to fetch s3://%s/%s%s", fetch->program,
             rank >= 0 ? "" : "waiting for ", whom, location->bucket, location->key,
             fetch->name);
    bool taken = false;
    struct s3_cluster_waiting waiting = {
        .publish = &fetching->publish, .name = fetch->name, .lease = &fetching->lease,
        .by_lease = rank < 0, .seconds = fetch->wait,
        .waiting = fetch->program == NULL ? NULL : line, .program = fetch->program};
    int result = s3_cluster_wait(&waiting, fetching->url, fetching->size, &taken);
    if (result == EXIT_OK && taken)
        return node_fetch_leased(fetching);
    s3_lease_release(&fetching->lease, false);
    *fetching->outcome = S3_FETCH_WAITED;
    return result;
}

/* Where the store refuses conditional PUTs: rank 0 fetches (every node, when no rank is given:
   said on stderr), the others wait. */
static int node_by_rank(struct fetching *fetching, long rank, bool rank_given)
{
    const struct s3_cluster_fetch *fetch = fetching->fetch;
    const struct s3_location *location = &fetching->publish.location;
    if (!rank_given && fetch->program != NULL)
        fprintf(stderr, "%s: s3://%s/%s%s: the store refuses conditional PUTs and no rank is "
                "given (--rank, RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK): fetching as rank 0\n",
                fetch->program, location->bucket, location->key, fetch->name);
    if (rank != 0)
        return node_wait(fetching, rank);
    int result = s3_lease_write(&fetching->lease);
    if (result != EXIT_OK) {
        s3_lease_release(&fetching->lease, false);
        return result;
    }
    return node_fetch(fetching, "rank 0");
}

/* Who fetches: the node whose conditional create of the lease succeeds, else by rank. */
static int node_choose(struct fetching *fetching, long rank, bool rank_given)
{
    enum s3_lease_outcome outcome = S3_LEASE_UNSUPPORTED;
    int result = s3_lease_init(&fetching->lease, &fetching->publish, fetching->fetch->name);
    if (result == EXIT_OK)
        result = s3_lease_take(&fetching->lease, &outcome);
    if (result != EXIT_OK) {
        s3_lease_release(&fetching->lease, false);
        return result;
    }
    if (outcome == S3_LEASE_TAKEN)
        return node_fetch_leased(fetching);
    if (outcome == S3_LEASE_HELD)
        return node_wait(fetching, -1);
    return node_by_rank(fetching, rank, rank_given);
}

int s3_cluster_fetch_run(const struct s3_cluster_fetch *fetch, char *url, size_t size,
                         enum s3_cluster_fetch_outcome *outcome)
{
    struct fetching fetching = {.fetch = fetch, .url = url, .size = size, .outcome = outcome};
    bool present = false, rank_given = false;
    long rank = 0;
    *outcome = S3_FETCH_PRESENT;
    int result = s3_cluster_rank(fetch->rank, &rank, &rank_given);
    if (result == EXIT_OK)
        result = s3_publish_begin(&fetching.publish, fetch->output, 0, fetch->threads);
    if (result != EXIT_OK)
        return result;
    if (!fetch->force)
        result = s3_publish_present(&fetching.publish, fetch->name, &present, url, size);
    if (result == EXIT_OK && !present)
        result = node_choose(&fetching, rank, rank_given);
    s3_publish_end(&fetching.publish);
    return result;
}
