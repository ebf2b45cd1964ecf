/* A dataset command's NAME [FORMAT] (download, convert, fetch, fixture), resolved once, with the
   config's extra datasets and converters, into the dataset's record or an extra converter. */
#ifndef FUEL_DATASET_ARGUMENTS_H
#define FUEL_DATASET_ARGUMENTS_H

#include "common/base/config.h"
#include "downloaders/dataset_registry.h"
#include "converters/extra.h"
#include "parse_options.h"
#include "runner.h"

#include <stdbool.h>
#include <stddef.h>

struct dataset_choice {
    const char *name;   /* as typed; NULL when none was given */
    const char *format; /* the argument after NAME when NAME has formats; NULL otherwise */
    size_t taken;       /* the positionals NAME and FORMAT took */
    const struct dataset *record; /* NULL: none, or NAME without its FORMAT under -h */
    const struct extra_converter *extra; /* converts NAME, which has no built-in converter */
    struct fuel_config config;
    struct extra_converters extras;
};

/* Loads the config and the extra datasets it names, and with EXTRAS its extra converters; the
   code and message of the first that is malformed. */
int dataset_choice_load(bool extras, struct dataset_choice *choice);

/* Resolves POSITIONALS' NAME [FORMAT] as KIND asks; an unknown NAME (with the closest names, or
   the list), or a missing or unknown FORMAT (with the formats), prints a usage error of PROGRAM,
   except a missing FORMAT under HELP, which leaves RECORD NULL. */
int dataset_choice_resolve(const char *program, enum dataset_argument kind,
                           const char *const *positionals, size_t count, bool help,
                           struct dataset_choice *choice);

/* The built-in converter that runs: the record's, unless an extra converter does; NULL then. */
const struct converter *dataset_choice_converter(const struct dataset_choice *choice);

/* "mnist", or "svhn 1": the record's name and format. */
void dataset_label(const struct dataset *record, char *text, size_t size);

void dataset_choice_free(struct dataset_choice *choice);

/* PARSED's words for an extra converter: every one but NAME (its first positional), as typed.
   Writes at most PARSED->word_count pointers into WORDS; returns how many. */
size_t dataset_extra_words(const struct parsed_arguments *parsed, const char **words);

#endif
