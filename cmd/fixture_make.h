/* fuel-fixture's making of an HDF5 fixture from a parsed command line (its options a struct
   fixture_options), without printing: the body prints the path, fuel-reproduce compares it. */
#ifndef FUEL_FIXTURE_MAKE_H
#define FUEL_FIXTURE_MAKE_H

#include "fixtures/h5py_cut_plan.h"
#include "fixture_options.h"
#include "runner.h"
#include "fixtures/fixture.h"

#include <stddef.h>

/* The fixture of RUN's dataset and the request its -n and --seed make (mtime left 0); a usage
   error for a dataset without a fixture or an unknown split. */
int fixture_synthetic_plan(const struct command_run *run, const struct raw_fixture **fixture,
                           struct fixture_request *request);

/* FIXTURE's raw files written by REQUEST into a staging in fixture_scratch_parent(), converted by
   the dataset's converter (RUN's dataset options, RUN's typed command recorded, one thread) into
   RUN's output directory (existing); the file's path into PATH. */
int fixture_synthetic_make(const struct command_run *run, const struct raw_fixture *fixture,
                           const struct fixture_request *request, char *path, size_t size);

/* The cut of PARENT (the file RUN's --from resolved to) REQUEST asks for, written into RUN's
   output directory (existing) with the parent's name as recorded: PARENT's base name. */
int fixture_cut_make(const struct command_run *run, const char *parent,
                     const struct cut_request *request, char *path, size_t size);

#endif
