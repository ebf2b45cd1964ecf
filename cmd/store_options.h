/* The options of every command that reads or writes s3:// names (--no-sign-request,
   --insecure): one table fragment, and what they make of the shared credentials. */
#ifndef FUEL_STORE_OPTIONS_H
#define FUEL_STORE_OPTIONS_H

#include "parse_options.h"

#include <stdbool.h>
#include <stddef.h>

struct store_settings {
    bool no_sign_request; /* s3:// requests unsigned (public buckets) */
    bool insecure;        /* s3:// endpoints' TLS certificates not verified */
};

/* The table entries, their values stored into the member SETTINGS (a struct store_settings) of
   the options struct TYPE, listed in -h's options ("[options]" in the usage line); fuel-reproduce
   ignores them. */
#define STORE_OPTIONS(type, settings)                                                             \
    {.long_name = "no-sign-request", .kind = OPTION_FLAG,                                         \
     .offset = offsetof(type, settings.no_sign_request),                                          \
     .help = "send s3:// requests unsigned, as to a public bucket (fuel-s3(7))",                  \
     .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS},                                     \
    {.long_name = "insecure", .kind = OPTION_FLAG, .offset = offsetof(type, settings.insecure),   \
     .help = "do not verify the TLS certificate of an s3:// endpoint (fuel-s3(7))",               \
     .reproduce = REPRODUCE_IGNORED, .usage = USAGE_OPTIONS}

/* Makes the shared s3:// credentials anonymous and TLS unverified as SETTINGS say. */
void store_settings_apply(const struct store_settings *settings);

#endif
