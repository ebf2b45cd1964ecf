/* fuel pack: a spec's inputs probed and checked (a plan), then written into an h5py writer as
   the H5PYDataset file Fuel's chapter 4 builds by hand. */
#ifndef FUEL_PACK_H
#define FUEL_PACK_H

#include "common/base/stage_listener.h"
#include "common/h5py/h5py_writer.h"
#include "common/h5py/provenance.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pack_plan;

/* Reads the spec at SPEC_PATH, probes every input and checks that they make a file: types,
   shapes, example counts against the splits, indices in range. THREADS decode images. The exit
   codes: EXIT_USAGE for a malformed spec, EXIT_MISSING_INPUT for a missing input,
   EXIT_CORRUPT_INPUT for inputs that are not what the spec says. */
int pack_plan_open(struct pack_plan **plan, const char *spec_path, unsigned threads);

/* The spec's `name` (or its file name without extension). */
const char *pack_plan_name(const struct pack_plan *plan);

/* The bytes the fixed-shape sources' elements take: a lower bound of the file's size. */
uint64_t pack_plan_bytes(const struct pack_plan *plan);

/* The spec's text. */
const char *pack_plan_spec_text(const struct pack_plan *plan);

/* Every file the plan reads, the spec first: *PATHS to open, *NAMES relative to the spec's
   directory for the provenance, *SUPPLIED those whose bytes pack_plan_write hands to it (the
   others, HDF5 files too, are read through common/base/input_file.h). */
size_t pack_plan_files(const struct pack_plan *plan, const char *const **paths,
                       const char *const **names, const bool **supplied);

/* Writes the sources, the indices and class names, then declares the splits; the files flagged
   supplied go to PROVENANCE as they are read. */
int pack_plan_write(struct pack_plan *plan, struct h5py_writer *writer,
                    const struct stage_listener *listener, struct provenance *provenance);

/* Frees the file lists once written: the provenance holds its own copies, and an image folder's
   lists are most of the memory left when the provenance is written. */
void pack_plan_files_release(struct pack_plan *plan);

void pack_plan_close(struct pack_plan *plan);

#endif
