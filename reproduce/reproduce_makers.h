/* The makers of fuel-reproduce: each builds the request of the command a file records (a
   conversion, an extra converter's, a synthetic fixture, a cut, a pack) from what the command
   layer read of the recorded command line, with the scratch directory for output and the inputs
   found for input, recording the recorded argv. */
#ifndef FUEL_REPRODUCE_MAKERS_H
#define FUEL_REPRODUCE_MAKERS_H

#include "common/base/stage_listener.h"
#include "common/base/typed_command.h"
#include "converters/extra.h"
#include "fixtures/fixture.h"
#include "fixtures/fixture_make.h"
#include "fixtures/h5py_cut_plan.h"
#include "reproduce/reproduce_engine.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum reproduce_kind {
    REPRODUCE_CONVERSION, /* fuel convert or fuel fetch of a dataset with a built-in converter */
    REPRODUCE_EXTRA,      /* the same with an extra converter program (--allow-extra) */
    REPRODUCE_SYNTHETIC,  /* fuel fixture NAME: synthetic raw files, converted */
    REPRODUCE_CUT,        /* fuel fixture --from FILE: the parent, found by its sha256 */
    REPRODUCE_PACK,       /* fuel pack SPEC: the spec and what it names, found by their sha256 */
};

/* A progress line the command layer draws while a maker works: BEGIN sets *LISTENER (NULL:
   nothing drawn), its stages labelled with DATASET's name when not NULL; END clears it. */
struct reproduce_drawing {
    void (*begin)(void *context, const struct dataset *dataset,
                  const struct stage_listener **listener);
    void (*end)(void *context);
    void *context;
};

/* What the recorded command makes, as the command layer read it with the command's own table. */
struct reproduce_making {
    enum reproduce_kind kind;
    const char *file;                  /* the file reproduced */
    json_t *provenance;                /* its fuel_provenance, parsed (its inputs left out) */
    const char *provenance_text;       /* the fuel_provenance text itself */
    const struct typed_command *typed; /* the recorded argv as typed: what the re-run records */
    const char *output_name;           /* -r as recorded; NULL: the command's own name */
    struct reproduce_drawing drawing;
    /* Conversions: the dataset, its converter's options, or the extra converter and its words
       (every recorded word but NAME). */
    const struct dataset *record;
    const void *dataset_options;
    const struct extra_converter *extra;
    const char **extra_words;
    size_t extra_word_count;
    /* Fixtures: the recorded options (the output directory replaced when made), the fixture and
       its request (synthetic), the examples to keep (cut), the parent's recorded name (cut). */
    struct fixture_making fixture;
    const struct raw_fixture *raw_fixture;
    struct fixture_request fixture_request;
    struct cut_request cut;
    const char *parent_name;
    /* fuel pack: the spec's recorded name (the first input). */
    const char *spec_name;
};

/* REQUEST's maker, its context MAKING, whether it makes the inputs, and the dataset whose URLs
   --download uses. */
void reproduce_making_request(struct reproduce_making *making, struct reproduce_request *request);

#endif
