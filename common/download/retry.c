/* Sorts transfer failures into transient and permanent ones and computes backoff pauses. */
#include "retry.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BACKOFF_CAP_SECONDS = 60 };

static enum retry_verdict classify_status(long http_status)
{
    if (http_status == 501)     /* Not Implemented: the same answer every time */
        return RETRY_PERMANENT;
    if (http_status >= 500 || http_status == 429 || http_status == 408)
        return RETRY_TRANSIENT;
    return RETRY_PERMANENT;
}

enum retry_verdict retry_classify(CURLcode result, long http_status)
{
    if (http_status >= 400)
        return classify_status(http_status);
    switch (result) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
        return RETRY_UNRESOLVED;
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_HTTP3:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_RANGE_ERROR:
        return RETRY_TRANSIENT;
    default:
        return RETRY_PERMANENT;
    }
}

double retry_backoff(unsigned attempt, double base, double random)
{
    double pause = base * ldexp(1.0, attempt > 0 ? (int)attempt - 1 : 0);
    if (attempt > 30 || pause > BACKOFF_CAP_SECONDS)
        pause = BACKOFF_CAP_SECONDS;
    return pause * (0.5 + 0.5 * random);
}

double retry_after_seconds(const char *value, time_t now)
{
    while (isspace((unsigned char)*value))
        value++;
    if (isdigit((unsigned char)*value)) {
        char *end;
        double seconds = strtod(value, &end);
        while (isspace((unsigned char)*end))
            end++;
        return *end == '\0' ? seconds : -1;
    }
    time_t when = curl_getdate(value, NULL);
    if (when == -1)
        return -1;
    return when > now ? (double)(when - now) : 0;
}
