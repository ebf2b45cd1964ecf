/* The options fuel-download and fuel-fetch share (-j, --retries, --timeout, --retry-delay,
   --url-prefix, --checksums, -q, --no-sign-request, --insecure): one table fragment, and what they make of download options. */
#ifndef FUEL_TRANSFER_OPTIONS_H
#define FUEL_TRANSFER_OPTIONS_H

#include "common/download/download_run.h"
#include "parse_options.h"
#include "store_options.h"

#include <stdbool.h>
#include <stddef.h>

struct transfer_settings {
    long jobs, retries;
    double timeout, retry_delay;
    const char *url_prefix; /* NULL: the built-in URLs (or the config's mirror) */
    const char *checksums;  /* NULL: the built-in checksums */
    bool quiet;
    struct store_settings store;
};

#define TRANSFER_SETTINGS_DEFAULT {.jobs = 4, .retries = 5, .timeout = 60, .retry_delay = 1}

/* The table entries, their values stored into the member SETTINGS (a struct transfer_settings)
   of the options struct TYPE: where from, the checksums, and how (fuel-reproduce ignores them all:
   it verifies by the sha256s recorded). The usage line shows --url-prefix where its PLACE says
   and folds the others into "[options]". */
#define TRANSFER_URL_PREFIX_OPTION(type, settings, place)                                         \
    {.short_name = 'P', .long_name = "url-prefix", .kind = OPTION_STRING,                         \
     .offset = offsetof(type, settings.url_prefix), .argument = "PREFIX",                         \
     .help = "fetch every file from PREFIX/NAME instead of the built-in URLs (a directory, "      \
             "with no scheme: file://DIR/)", .reproduce = REPRODUCE_IGNORED, .usage = place,      \
     .usage_long_name = true}

#define TRANSFER_CHECKSUMS_OPTION(type, settings)                                                 \
    {.long_name = "checksums", .kind = OPTION_STRING,                                             \
     .offset = offsetof(type, settings.checksums), .argument = "FILE",                            \
     .help = "md5sum/sha256sum lines replacing the built-in checksums",                           \
     .completion = COMPLETE_FILE, .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS}

#define TRANSFER_CONNECTION_OPTIONS(type, settings)                                               \
    {.short_name = 'j', .long_name = "jobs", .kind = OPTION_INTEGER,                              \
     .offset = offsetof(type, settings.jobs), .argument = "N",                                    \
     .help = "transfers at once (default 4)", .minimum = 1, .maximum = 64,                        \
     .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS},                                     \
    {.long_name = "retries", .kind = OPTION_INTEGER, .offset = offsetof(type, settings.retries),  \
     .argument = "N", .help = "retries of a transient failure per URL (default 5)",               \
     .minimum = 0, .maximum = 100, .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS},       \
    {.long_name = "timeout", .kind = OPTION_DECIMAL, .offset = offsetof(type, settings.timeout),  \
     .argument = "SECONDS", .help = "give up a connection or a stalled transfer after SECONDS "   \
     "(default 60)", .minimum = 0.001, .maximum = 86400, .reproduce = REPRODUCE_IGNORED,          \
     .usage = USAGE_OPTIONS},                                                                     \
    {.long_name = "retry-delay", .kind = OPTION_DECIMAL,                                          \
     .offset = offsetof(type, settings.retry_delay), .argument = "SECONDS",                       \
     .help = "pause before the first retry, doubled each time (default 1)", .minimum = 0,         \
     .maximum = 3600, .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS},                    \
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG,                                \
     .offset = offsetof(type, settings.quiet), .help = "print only errors",                       \
     .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS},                                     \
    STORE_OPTIONS(type, settings.store)

#define TRANSFER_OPTIONS(type, settings, url_prefix_place)                                        \
    TRANSFER_URL_PREFIX_OPTION(type, settings, url_prefix_place),                                 \
        TRANSFER_CHECKSUMS_OPTION(type, settings), TRANSFER_CONNECTION_OPTIONS(type, settings)

/* OPTIONS' jobs, retries, timeout, delay and progress (none with -q, live on a terminal, else a
   line per file) from SETTINGS; raw files are also verified by their inflated content, and
   failures end with what to try. */
void transfer_settings_apply(const struct transfer_settings *settings,
                             struct download_options *options);

#endif
