/* fuel-fixture's options, and its -n values: N, or SPLIT=N,SPLIT=N, possibly repeated. */
#ifndef FUEL_FIXTURE_OPTIONS_H
#define FUEL_FIXTURE_OPTIONS_H

#include "fixtures/h5py_cut_plan.h"
#include "parse_options.h"

#include <stdbool.h>
#include <stdint.h>

/* The examples per split when -n gives no count. */
enum { DEFAULT_EXAMPLES = 10 };

/* What fuel-fixture's option table fills. */
struct fixture_options {
    const char *output_directory, *output_filename, *from;
    struct option_list examples;
    long seed;
    bool raw, shuffle, quirks;
};

/* Reads the -n values LIST into REQUEST (examples and named splits); DEFAULT_EXAMPLES when none
   gives a bare N. Every count must be from 1 to MAXIMUM: otherwise a usage error. */
int examples_parse(const char *program, const struct option_list *list, uint64_t default_examples,
                   uint64_t maximum, struct cut_request *request);

#endif
