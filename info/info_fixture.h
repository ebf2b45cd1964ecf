/* fuel-info's first lines for a fixture: what it is, in words, before anything else. */
#ifndef FUEL_INFO_FIXTURE_H
#define FUEL_INFO_FIXTURE_H

#include "common/h5py/h5py_reader.h"

#include <stdbool.h>

/* Prints the note when FILE's provenance has a "fixture" entry or an input of fuel fixture --raw
   output; nothing otherwise. */
void info_fixture_print(const struct h5py_file *file);

/* Whether FILE's provenance marks it as a fixture (fuel-fixture wrote it, or it was converted
   from fuel fixture --raw output). */
bool info_is_fixture(const struct h5py_file *file);

#endif
