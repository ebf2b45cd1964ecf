/* fuel fetch into s3://BUCKET/PREFIX for one node of a cluster: nothing when the object is there
   as fuel publishes it, else the node chosen by the lease object (else by rank, s3_cluster.h)
   downloads and converts in a local staging through the caller's callbacks and uploads, while
   the other nodes wait for its object. */
#ifndef FUEL_S3_CLUSTER_FETCH_H
#define FUEL_S3_CLUSTER_FETCH_H

#include <stdbool.h>
#include <stddef.h>

enum s3_cluster_fetch_outcome {
    S3_FETCH_PRESENT, /* the object was there before: nothing done */
    S3_FETCH_WAITED,  /* another node published it */
    S3_FETCH_MADE,    /* this node fetched, converted and uploaded it */
};

struct s3_cluster_fetch {
    const char *output;       /* s3://BUCKET/PREFIX */
    const char *name;         /* the object's name under the prefix, the converted file's */
    long rank;                /* --rank, negative: not given */
    double wait;              /* --wait: seconds */
    unsigned threads;         /* the upload's parts in flight */
    bool force;               /* make it even when it is there */
    const char *program;      /* names the progress lines; NULL: quiet */
    /* Downloads the raw files into DIRECTORY (the local staging, its free space to check). */
    int (*download)(void *context, const char *directory);
    /* Converts them in DIRECTORY; the converted file's path into PATH. */
    int (*convert)(void *context, const char *directory, char *path, size_t size);
    void *context;
};

/* Runs FETCH for this node: the object's s3:// URL into URL, what was done into *OUTCOME.
   EXIT_USAGE for a bad rank variable, EXIT_TRANSFER when the store fails, the fetching node
   failed or stopped, or the wait ran out; the callbacks' codes as they return them. */
int s3_cluster_fetch_run(const struct s3_cluster_fetch *fetch, char *url, size_t size,
                         enum s3_cluster_fetch_outcome *outcome);

#endif
