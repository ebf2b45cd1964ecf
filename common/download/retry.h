/* Which transfer failures are worth retrying, and how long to wait before the next attempt. */
#ifndef FUEL_RETRY_H
#define FUEL_RETRY_H

#include <curl/curl.h>
#include <time.h>

enum retry_verdict {
    RETRY_TRANSIENT, /* try the same URL again after a pause */
    RETRY_PERMANENT, /* this URL will not work: move to the next one */
    RETRY_UNRESOLVED, /* the host or the proxy has no address (no network?): the next URL */
};

/* Classifies a finished transfer by libcurl's result and the HTTP status (0 when none). */
enum retry_verdict retry_classify(CURLcode result, long http_status);

/* The pause before retry number ATTEMPT (1 for the first retry): BASE doubled each time, capped
   at a minute, scaled by a jitter factor between 0.5 and 1 taken from RANDOM in [0, 1). */
double retry_backoff(unsigned attempt, double base, double random);

/* Seconds asked for by a Retry-After value (delay-seconds or an HTTP date, relative to NOW);
   -1 when VALUE is neither. */
double retry_after_seconds(const char *value, time_t now);

#endif
