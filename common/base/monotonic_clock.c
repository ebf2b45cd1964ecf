/* Seconds on the monotonic clock, for durations, timeouts and redraw pacing. */
#include "monotonic_clock.h"

#include <time.h>

double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}
