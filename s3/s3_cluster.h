/* The nodes of a cluster fetching one dataset into a bucket, so that the origin sends each file
   once: the node that creates the lease object (s3_lease.h) fetches, converts and uploads where
   the store honours If-None-Match: *, else the node of rank 0 (Swift's s3api answers a
   conditional PUT "501 NotImplemented"); the others wait (bounded) for the object. The fetching
   node renews its lease while it lives; a failure is recorded beside the object
   (PREFIX/.fuel-failed-NAME, its message) so that the waiting nodes stop at once. A lease not
   renewed is a dead node's: one waiting node takes it over, or, chosen by rank, they stop. */
#ifndef FUEL_S3_CLUSTER_H
#define FUEL_S3_CLUSTER_H

#include "s3/s3_lease.h"
#include "s3/s3_publish.h"

#include <stdbool.h>
#include <stddef.h>

/* A recorded failure counts for a waiting node when it was written after the node began
   waiting, or at most this many seconds before (by the store's clock). */
#define S3_CLUSTER_FAILURE_FRESH 10

/* This node's rank: CHOSEN when not negative (--rank), else RANK, SLURM_PROCID or
   OMPI_COMM_WORLD_RANK, else 0 (*GIVEN false). EXIT_USAGE naming the variable when its value is
   not a whole number from 0. */
int s3_cluster_rank(long chosen, long *rank, bool *given);

/* Rank 0, before fetching: removes an earlier run's failure of NAME. */
int s3_cluster_failure_clear(const struct s3_publish *publish, const char *name);

/* The fetching node (WHO: "rank 0", "the lease holder"), having failed: records WHY (one line)
   as NAME's failure. The error set by the failure is kept; a failure to record it adds nothing. */
void s3_cluster_failure_record(const struct s3_publish *publish, const char *name,
                               const char *who, const char *why);

struct s3_cluster_waiting {
    const struct s3_publish *publish;
    const char *name;
    struct s3_lease *lease;  /* NAME's */
    bool by_lease;           /* the fetching node holds the lease, else it is rank 0 */
    double seconds;          /* --wait */
    const char *waiting;     /* said once on stderr; NULL: nothing */
    const char *program;     /* names the line saying a stale lease is taken over; NULL: none */
};

/* Waits at most SECONDS for NAME to be published under the prefix (s3_publish_present); its URL
   into URL. By lease, a missing or stale lease is taken (*TAKEN: this node fetches now). By
   rank, a lease rank 0 stopped renewing since this node began waiting is EXIT_TRANSFER naming
   it. EXIT_TRANSFER too when the fetching node recorded a failure (its message given), when
   SECONDS pass, or when the store fails. */
int s3_cluster_wait(const struct s3_cluster_waiting *waiting, char *url, size_t size,
                    bool *taken);

#endif
