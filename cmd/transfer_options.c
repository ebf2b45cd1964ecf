/* What fuel-download's and fuel-fetch's shared transfer options make of the download options. */
#include "transfer_options.h"

#include "common/formats/gzip/inflated_digest.h"

#include <unistd.h>

void transfer_settings_apply(const struct transfer_settings *settings,
                             struct download_options *options)
{
    store_settings_apply(&settings->store);
    options->jobs = (unsigned)settings->jobs;
    options->retries = (unsigned)settings->retries;
    options->timeout = settings->timeout;
    options->retry_delay = settings->retry_delay;
    options->progress = settings->quiet            ? PROGRESS_QUIET
                        : isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_LINES;
    options->content_digest = inflated_digest;
    options->mismatch_hint = "other files on purpose? give their sums with --checksums FILE "
                             "(fixtures), or convert files on disk with fuel convert -d DIR";
    options->unresolved_hint = "no network? for files on disk give --url-prefix file://DIR/";
}
