/* A dataset's positional arguments NAME [FORMAT] and the dataset options passed on to its
   converter (mnist --dtype float32), read once for fuel-download, fuel-convert and fuel-fetch. */
#ifndef FUEL_DATASET_ARGUMENTS_H
#define FUEL_DATASET_ARGUMENTS_H

#include "converters/conversion.h"
#include "converters/registry.h"
#include "parse_options.h"

#include <stdbool.h>

struct dataset_arguments {
    const char *name;   /* NULL only with -h */
    const char *format; /* NULL when NAME has no formats or none was given */
};

/* NAME, then FORMAT when the dataset NAME has formats; no NAME (without -h) or another
   positional is a usage error of PROGRAM. */
int dataset_arguments_read(const char *program, const struct parsed_arguments *parsed,
                           struct dataset_arguments *dataset);

/* Each option PARSED passed on, set in REQUEST's values as its converter's option; an option it
   does not have, one without a value or a value not among its choices is a usage error of
   PROGRAM. */
int dataset_options_apply(const char *program, const struct parsed_arguments *parsed,
                          struct conversion_request *request);

/* PARSED's words for an extra converter: every one but NAME (its first positional), as typed.
   Writes at most PARSED->word_count pointers into WORDS; returns how many. */
size_t dataset_extra_words(const struct parsed_arguments *parsed, const char **words);

#endif
