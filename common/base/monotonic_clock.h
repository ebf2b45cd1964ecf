/* Seconds on the monotonic clock, for durations, timeouts and redraw pacing. */
#ifndef FUEL_MONOTONIC_CLOCK_H
#define FUEL_MONOTONIC_CLOCK_H

double monotonic_seconds(void);

#endif
