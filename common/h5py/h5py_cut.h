/* The writing half of cutting a fixture from an H5PYDataset file: the planned examples of every
   source, the same layout, into an H5PYDataset writer, in blocks of bounded size. */
#ifndef FUEL_H5PY_CUT_H
#define FUEL_H5PY_CUT_H

#include "h5py_cut_plan.h"

struct h5py_writer;

/* Bytes of examples held at once while copying a fixed-shape source, and at most this many
   examples (their indices take 8 bytes each, and more while sorted into runs). */
#define CUT_BLOCK_BYTES (16u << 20)
#define CUT_BLOCK_EXAMPLES (1u << 16)

/* Declares PLAN's sources in WRITER, copies their kept examples and declares the splits. */
int h5py_cut_write(struct cut_plan *plan, struct h5py_writer *writer);

#endif
