/* fuel duplicates' answer: a summary, then one line per group of equal examples, or one JSON
   object with the same facts. */
#ifndef FUEL_DUPLICATES_REPORT_H
#define FUEL_DUPLICATES_REPORT_H

#include "duplicate_search.h"

#include <jansson.h>
#include <stdio.h>

/* The text report on STREAM. EXIT_WRITE when it cannot be written. */
int duplicates_print_text(FILE *stream, const struct duplicates_request *request,
                          const struct duplicates_result *result);

/* The JSON report (NULL when out of memory). */
json_t *duplicates_json(const struct duplicates_request *request,
                        const struct duplicates_result *result);

#endif
