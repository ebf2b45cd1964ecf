/* A file's recorded command read for fuel-reproduce: never executed as a command line, but parsed
   with its own command's option table (the runner's parse, without the body), every option given
   checked against what fuel-reproduce knows of it (kept, replaced by the scratch and the inputs
   found, ignored, a bare file name, or refused), and turned into a maker that builds the request
   itself (converters/conversion.h, fuel-fixture's making) into the scratch directory. */
#ifndef FUEL_REPRODUCE_RECIPE_H
#define FUEL_REPRODUCE_RECIPE_H

#include "fixtures/h5py_cut_plan.h"
#include "reproduce/reproduce_engine.h"
#include "fixture_options.h"
#include "recorded_command.h"
#include "runner.h"
#include "fixtures/fixture.h"

#include <stdbool.h>

enum recipe_kind {
    RECIPE_CONVERSION, /* fuel convert or fuel fetch of a dataset with a built-in converter */
    RECIPE_EXTRA,      /* the same with an extra converter program (--allow-extra) */
    RECIPE_SYNTHETIC,  /* fuel fixture NAME: synthetic raw files, converted */
    RECIPE_CUT,        /* fuel fixture --from FILE: the parent, found by its sha256 */
    RECIPE_PACK,       /* fuel pack SPEC: the spec and what it names, found by their sha256 */
};

struct reproduce_recipe {
    const char *file;
    struct recorded_command recorded;
    struct typed_command typed; /* the recorded argv as typed: what the re-run records */
    struct command_invocation *invocation;
    const struct command_run *run; /* the recorded command line as its body would get it */
    enum recipe_kind kind;
    const char *output_name; /* -r as recorded; NULL: the command's own name */
    bool quiet;               /* no progress line */
    /* Fixtures: the recorded options (the output directory replaced when made), the fixture and
       its request (synthetic), the examples to keep (cut), the parent's recorded name (cut). */
    struct fixture_options fixture;
    const struct raw_fixture *raw_fixture;
    struct fixture_request fixture_request;
    struct cut_request cut;
    const char *parent_name;
    /* fuel pack: the spec's recorded name (the first input), the output name as recorded. */
    const char *spec_name;
};

/* Reads PROVENANCE (the fuel_provenance text of FILE) into RECIPE (freed with
   reproduce_recipe_free, also after a failure). EXIT_CORRUPT_INPUT, the message starting
   "malformed provenance: FILE: ", "hostile provenance: FILE: " (an option that would write
   outside the scratch directory, an extra converter program without ALLOW_EXTRA) or "cannot
   reproduce: FILE: " (a command fuel-reproduce has no maker for). */
int reproduce_recipe_read(const char *file, const char *provenance, bool allow_extra,
                          struct reproduce_recipe *recipe);

/* REQUEST's maker, its context RECIPE, whether it makes the inputs, and the dataset whose URLs
   --download uses. */
void reproduce_recipe_request(struct reproduce_recipe *recipe, struct reproduce_request *request);

void reproduce_recipe_free(struct reproduce_recipe *recipe);

/* Whether fuel-reproduce makes files of the command LINE declares (every option of LINE then has a
   reproduce rule). */
bool reproduce_recipe_reads(const struct command_line *line);

/* The makers (reproduce_makers.c), of RECIPE_CONVERSION, RECIPE_EXTRA, RECIPE_SYNTHETIC,
   RECIPE_CUT and RECIPE_PACK recipes. */
reproduce_make_function reproduce_make_conversion, reproduce_make_extra, reproduce_make_synthetic,
    reproduce_make_cut, reproduce_make_pack;

#endif
