/* fuel stats' report as text: a block per split, a line per source, channel, class or axis. */
#ifndef FUEL_STATS_TEXT_H
#define FUEL_STATS_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* Prints REPORT (as stats_report makes it) on STREAM. */
void stats_text_print(FILE *stream, const json_t *report);

#endif
