/* The lease of the node that fetches NAME into s3://BUCKET/PREFIX: the object
   PREFIX/.fuel-lease-NAME, one line "host H pid P started T expires E", created with
   If-None-Match: * where the store honours it (so one node of a cluster wins it), renewed by a
   thread of the node every quarter of its seconds while the node lives, deleted when it is done.
   A lease not renewed for its seconds, by the store's clock (its Last-Modified against the
   answer's Date), is a dead node's: the waiting node whose conditional create of
   PREFIX/.fuel-lease-NAME-ETAG (the stale lease's ETag, the same for all who saw it) succeeds
   writes the lease anew and fetches; deleting the stale lease instead would let a slow waiter
   delete the new one. */
#ifndef FUEL_S3_LEASE_H
#define FUEL_S3_LEASE_H

#include "s3/s3_publish.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A lease's life without renewal; FUEL_S3_LEASE_SECONDS replaces it (the tests' short leases). */
#define S3_LEASE_SECONDS 20.0

enum s3_lease_outcome {
    S3_LEASE_TAKEN,       /* created: this node fetches */
    S3_LEASE_HELD,        /* another node's lease is there (412, or 409 for a race) */
    S3_LEASE_UNSUPPORTED, /* the store refuses conditional PUTs (501, or NotImplemented) */
};

enum s3_lease_state { S3_LEASE_NONE, S3_LEASE_LIVE, S3_LEASE_STALE };

/* What a waiting node saw of the lease. */
struct s3_lease_view {
    enum s3_lease_state state;
    char holder[512];     /* its line, control characters made spaces */
    double age;           /* seconds since its last renewal */
    time_t renewed;       /* that renewal (the store's clock) */
    char etag[256];
};

struct s3_lease {
    const struct s3_publish *publish;
    char *key;
    char *takeover_key;   /* the take-over's claim, deleted with the lease; NULL: none */
    double seconds;
    time_t started;
    bool renewing, stopping;
    pthread_t renewer;
    pthread_mutex_t mutex;
    pthread_cond_t stop;
};

/* Sets up LEASE for NAME under PUBLISH's prefix. EXIT_CORRUPT_INPUT when NAME is not a safe key. */
int s3_lease_init(struct s3_lease *lease, const struct s3_publish *publish, const char *name);

/* Creates the lease when there is none (If-None-Match: *): *OUTCOME says what the store said.
   EXIT_TRANSFER when it fails otherwise. */
int s3_lease_take(struct s3_lease *lease, enum s3_lease_outcome *outcome);

/* Writes the lease whatever is there (rank 0 on a store without conditional PUTs). */
int s3_lease_write(struct s3_lease *lease);

/* Starts the thread that renews the lease until s3_lease_release. */
int s3_lease_renew(struct s3_lease *lease);

/* A waiting node's look at the lease. */
int s3_lease_look(const struct s3_lease *lease, struct s3_lease_view *view);

/* Takes over the stale lease VIEW saw: *OUTCOME TAKEN when this node's claim won (the lease then
   written anew), HELD when another node's did. */
int s3_lease_take_over(struct s3_lease *lease, const struct s3_lease_view *view,
                       enum s3_lease_outcome *outcome);

/* Stops renewing (when started), deletes the lease when DELETE, frees LEASE. The error set
   before is kept. */
void s3_lease_release(struct s3_lease *lease, bool delete);

#endif
