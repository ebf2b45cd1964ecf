/* A file's recorded command read for fuel-reproduce: never executed as a command line, but parsed
   with its own command's option table (the runner's parse, without the body), every option given
   checked against what fuel-reproduce knows of it (kept, replaced by the scratch and the inputs
   found, ignored, a bare file name, or refused), and turned into what a maker of
   reproduce/reproduce_makers.h makes again in the scratch directory. */
#ifndef FUEL_REPRODUCE_RECIPE_H
#define FUEL_REPRODUCE_RECIPE_H

#include "fixture_options.h"
#include "recorded_command.h"
#include "reproduce/reproduce_makers.h"
#include "runner.h"
#include "stage_progress.h"

#include <stdbool.h>

struct reproduce_recipe {
    struct recorded_command recorded;
    struct typed_command typed; /* the recorded argv as typed: what the re-run records */
    struct command_invocation *invocation;
    const struct command_run *run; /* the recorded command line as its body would get it */
    struct fixture_options fixture; /* fuel fixture's recorded options */
    struct reproduce_making making;  /* what reproduce_makers.h makes of them */
    bool quiet;                      /* no progress line while the maker works */
    struct stage_progress drawn;
};

/* Reads PROVENANCE (the fuel_provenance text of FILE) into RECIPE (freed with
   reproduce_recipe_free, also after a failure). EXIT_CORRUPT_INPUT, the message starting
   "malformed provenance: FILE: ", "hostile provenance: FILE: " (an option that would write
   outside the scratch directory, an extra converter program without ALLOW_EXTRA) or "cannot
   reproduce: FILE: " (a command fuel-reproduce has no maker for). */
int reproduce_recipe_read(const char *file, const char *provenance, bool allow_extra,
                          struct reproduce_recipe *recipe);

/* REQUEST's maker (reproduce_making_request), its progress drawn unless RECIPE->quiet. */
void reproduce_recipe_request(struct reproduce_recipe *recipe, struct reproduce_request *request);

void reproduce_recipe_free(struct reproduce_recipe *recipe);

/* Whether fuel-reproduce makes files of the command LINE declares (every option of LINE then has a
   reproduce rule). */
bool reproduce_recipe_reads(const struct command_line *line);

#endif
