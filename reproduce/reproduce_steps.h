/* What reproduce_engine.c shares with its steps: the recorded inputs (reproduce_inputs.c) and the
   comparison (reproduce_compare.c). */
#ifndef FUEL_REPRODUCE_STEPS_H
#define FUEL_REPRODUCE_STEPS_H

#include "reproduce_engine.h"

#include "common/base/provenance_inputs.h"

#include <jansson.h>

/* OUTCOME's inputs from the "inputs" list of FILE's provenance, walked one entry at a time from
   INPUTS; EXIT_CORRUPT_INPUT naming what is malformed (an entry, a size, a sha256, more than
   1,048,576 entries) or hostile (a name that is not a plain file name or, with RELATIVE_NAMES, a
   relative path whose only ".." lead it). */
int reproduce_inputs_read(struct provenance_inputs *inputs, const char *file, bool relative_names,
                          struct reproduce_outcome *outcome);

/* Looks for each input in REQUEST's directories. */
int reproduce_inputs_find(const struct reproduce_request *request,
                          struct reproduce_outcome *outcome);

/* Whether every input was found, or may be downloaded. */
bool reproduce_inputs_ready(const struct reproduce_request *request,
                            const struct reproduce_outcome *outcome);

/* BASE/NAME for each input: a link to the file found, or the file downloaded there. BASE is
   DIRECTORY, or with relative names a folder in it as deep as the names climb with "../". */
int reproduce_inputs_place(const struct reproduce_request *request,
                           struct reproduce_outcome *outcome, const char *directory, char *base,
                           size_t size);

/* The file PATH against the re-run MADE: OUTCOME's verdict, versions and report; LISTENER (NULL:
   nobody) told the examples compared. */
int reproduce_compare(const char *path, const char *made, const struct stage_listener *listener,
                      struct reproduce_outcome *outcome);

#endif
