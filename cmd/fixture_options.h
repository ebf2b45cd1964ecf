/* fuel-fixture's options, and its -n values: N, or SPLIT=N,SPLIT=N, possibly repeated. */
#ifndef FUEL_FIXTURE_OPTIONS_H
#define FUEL_FIXTURE_OPTIONS_H

#include "fixtures/fixture_make.h"
#include "fixtures/h5py_cut_plan.h"
#include "parse_options.h"
#include "runner.h"
#include "store_options.h"

#include <stdbool.h>
#include <stdint.h>

/* What fuel-fixture's option table fills. */
struct fixture_options {
    const char *output_directory, *output_filename, *from;
    struct option_list examples;
    long seed;
    bool raw, shuffle, quirks;
    struct store_settings store;
};

/* Reads the -n values LIST into REQUEST (examples and named splits); DEFAULT_EXAMPLES when none
   gives a bare N. Every count must be from 1 to MAXIMUM: otherwise a usage error. */
int examples_parse(const char *program, const struct option_list *list, uint64_t default_examples,
                   uint64_t maximum, struct cut_request *request);

/* MAKING from RUN's dataset and CHOSEN, its usage errors ending with PROGRAM's -h (NULL: none). */
void fixture_making_of(const struct command_run *run, const struct fixture_options *chosen,
                       const char *program, struct fixture_making *making);

/* MAKING's fixture and the request its -n values EXAMPLES and its seed make (mtime left 0). */
int fixture_synthetic_read(const struct fixture_making *making, const struct option_list *examples,
                           const struct raw_fixture **fixture, struct fixture_request *request);

#endif
