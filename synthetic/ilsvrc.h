/* What the ILSVRC2012 and ILSVRC2010 raw fixtures share: a small devkit (a real MATLAB v5 struct
   array of synsets, the validation ground truth), a training tar of per-class tars, flat
   validation and test tars, each holding real JPEGs in an order that is not sorted. */
#ifndef FUEL_SYNTHETIC_ILSVRC_H
#define FUEL_SYNTHETIC_ILSVRC_H

#include "downloaders/ilsvrc.h"
#include "fixture.h"

#include <stdbool.h>
#include <stddef.h>

/* Why a ground truth needs two lines at least. */
#define ILSVRC_GROUND_TRUTH_REASON                                                                 \
    "Python Fuel reads a ground truth with numpy.loadtxt, which makes a single line a 0-d array "  \
    "it cannot iterate"

/* The three splits, in the fixture's order. */
extern const char *const ilsvrc_fixture_splits[3];

/* Writes the raw files of REQUEST's dataset into DIRECTORY as LAYOUT lays them out; with
   GZIP_MEMBERS (2010), a third of the training images wrapped in gzip. */
int ilsvrc_fixture_write(const struct fixture_request *request, const char *directory,
                         const struct ilsvrc_layout *layout, bool gzip_members);

#endif
