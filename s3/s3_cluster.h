/* The nodes of a cluster fetching one dataset into a bucket, so that the origin sends each file
   once: the node of rank 0 fetches, converts and uploads; the others wait (bounded) for the
   object. A failure of rank 0 is recorded beside the object (PREFIX/.fuel-failed-NAME, its
   message) so that the waiting nodes stop at once. Swift's s3api refuses conditional PUTs
   (If-None-Match: *, "501 NotImplemented"), so the fetching node is chosen by rank, not by a
   lease object. */
#ifndef FUEL_S3_CLUSTER_H
#define FUEL_S3_CLUSTER_H

#include "s3/s3_publish.h"

#include <stdbool.h>
#include <stddef.h>

/* A recorded failure counts for a waiting node when it was written after the node began
   waiting, or at most this many seconds before (by the store's clock). */
#define S3_CLUSTER_FAILURE_FRESH 10

/* This node's rank: CHOSEN when not negative (--rank), else RANK, SLURM_PROCID or
   OMPI_COMM_WORLD_RANK, else 0. EXIT_USAGE naming the variable when its value is not a whole
   number from 0. */
int s3_cluster_rank(long chosen, long *rank);

/* Rank 0, before fetching: removes an earlier run's failure of NAME. */
int s3_cluster_failure_clear(const struct s3_publish *publish, const char *name);

/* Rank 0, having failed: records WHY (one line) as NAME's failure. The error set by the failure
   is kept; a failure to record it only adds nothing. */
void s3_cluster_failure_record(const struct s3_publish *publish, const char *name,
                               const char *why);

/* Waits at most SECONDS for NAME to be published under the prefix (s3_publish_present), saying
   WAITING once on stderr when not NULL; its URL into URL. EXIT_TRANSFER when rank 0 recorded a
   failure (its message given), when SECONDS pass, or when the store fails. */
int s3_cluster_wait(const struct s3_publish *publish, const char *name, double seconds,
                    const char *waiting, char *url, size_t size);

#endif
