/* Fetches a set of files into a directory with libcurl's multi interface: several at once,
   resumed from NAME.part, retried with backoff, verified, then renamed into place. */
#ifndef FUEL_DOWNLOAD_RUN_H
#define FUEL_DOWNLOAD_RUN_H

#include "common/base/input_verdict.h"
#include "common/base/progress.h"
#include "raw_file.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exit code of a run stopped by SIGINT or SIGTERM. */
#define DOWNLOAD_INTERRUPTED 130

struct download_item {
    const char *name;          /* file name inside the directory */
    char *const *urls;         /* tried in order */
    size_t url_count;
    uint64_t size;             /* expected bytes; 0 when unknown */
    const char *checksum;      /* md5 or sha256 in hex; NULL when unknown */
    uint64_t content_size;     /* bytes of the decoded content (a gzip file's); 0 when unknown */
    const char *content_sha256; /* its sha256, accepting other bytes of the same content when
                                   the checksum differs; NULL when unknown */
};

struct download_options {
    const char *directory;
    unsigned jobs;             /* transfers at once, at least 1 */
    unsigned retries;          /* further attempts per URL after a transient failure */
    double timeout;            /* seconds to connect, and without a byte before giving up */
    double retry_delay;        /* pause before the first retry; doubled each time */
    bool force;                /* fetch even files already present and verified */
    enum progress_mode progress;
    content_digest_function *content_digest; /* decodes a file for its content; NULL: never */
    const char *mismatch_hint;   /* what to try, after a size or checksum mismatch; NULL: none */
    const char *unresolved_hint; /* what to try, when no URL's host resolved; NULL: none */
    enum input_verdict *verdicts; /* after a success, each item's verdict; NULL: not wanted */
};

/* Fetches every item not already present and verified. Returns EXIT_OK, or the code of the first
   failure with its message set: EXIT_TRANSFER (every URL of a file failed; a host that does not
   resolve is not retried, and when no URL's host resolved the message names them), EXIT_CHECKSUM
   (size or checksum mismatch, and no content digest matching either; the .part is removed),
   EXIT_WRITE, or DOWNLOAD_INTERRUPTED (the .part files are kept for a later run). */
int download_run(const struct download_item *items, size_t count,
                 const struct download_options *options);

#endif
