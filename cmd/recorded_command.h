/* The command a file's fuel_provenance records (its argv, as typed): which fuel command ran, with
   which arguments, read with that command's own option table. fuel-info names the dataset from
   it; fuel-reproduce parses it as the command itself would. */
#ifndef FUEL_RECORDED_COMMAND_H
#define FUEL_RECORDED_COMMAND_H

#include "downloaders/dataset.h"
#include "common/base/provenance_inputs.h"
#include "runner.h"

#include <jansson.h>

struct recorded_command {
    json_t *provenance;  /* the parsed fuel_provenance object but its inputs list */
    json_t *first_input; /* the first entry of that list; NULL when there is none */
    struct provenance_inputs inputs; /* the list, to walk (it is not parsed whole) */
    const char *text;    /* the fuel_provenance text read, the caller's */
    int argc;
    char **argv;        /* the recorded argv, copied, NULL-terminated: argv[0] as typed */
    char name[64];      /* the fuel command it names ("convert"); "" when it names none */
    const struct command *command; /* its entry in the command table; NULL when none (hidden
                                      commands included) */
    int offset; /* argv + offset is the command's own argv: 1 after "fuel", 0 after "fuel-X" */
};

/* Reads PROVENANCE_TEXT (a fuel_provenance attribute). EXIT_CORRUPT_INPUT when it is not a JSON
   object ("not JSON: why"), or its argv is not a non-empty list of strings; a command that is not
   fuel's or not in the table is no error here (NAME or COMMAND NULL). */
int recorded_command_read(const char *provenance_text, struct recorded_command *recorded);

/* The built-in dataset record the recorded command names (NAME [FORMAT], its first positionals);
   NULL when it names none (fixture --from, an extra dataset, no dataset command). */
const struct dataset *recorded_command_dataset(const struct recorded_command *recorded);

void recorded_command_free(struct recorded_command *recorded);

#endif
