/* The one command runner (git's run_builtin): each command declares its options, arguments and
   help in a struct command_line and gets, in its body, the values parsed into its own options
   struct; the runner parses, answers -h, checks what is required, prints errors in the one
   format and cleans up. */
#ifndef FUEL_RUNNER_H
#define FUEL_RUNNER_H

#include "common/base/typed_command.h"
#include "parse_options.h"

#include <stdbool.h>
#include <stddef.h>

struct command_run;
struct dataset;
struct dataset_choice;

/* What a command's NAME must name (dataset_arguments.h resolves it). */
enum dataset_argument {
    DATASET_NONE,      /* the command takes no dataset */
    DATASET_RECORD,    /* a dataset's record, built in or from a manifest */
    /* A record, whose FORMAT may be left out when every format has the same files (fuel-download
       celeba, as in Python Fuel, whose formats convert from the same two files). */
    DATASET_FILES,
    DATASET_CONVERTER, /* a record with a built-in converter, or an extra converter */
};

struct command_line {
    const char *description; /* a paragraph after the usage line; NULL when none */
    const struct command_option *options;
    size_t option_count;
    size_t options_size;        /* the command's options struct, which the table fills */
    const void *option_defaults; /* its values before parsing; NULL: zeroes */
    size_t maximum_positionals; /* more is a usage error */
    const char *positional_name; /* "FILE or NAME": none given is a usage error; NULL: optional */
    /* The positionals as the usage line shows them ("FILE|NAME...", "DATASET [FORMAT]"); NULL:
       the choices as a|b, else none. They close the usage line unless POSITIONALS_FIRST (and the
       dataset commands' come first). */
    const char *positional_usage;
    bool positionals_first;
    enum completion_kind positional_completion;
    const char *positional_choices; /* space-separated words for COMPLETE_CHOICE positionals */
    bool verbatim; /* every argument is a positional (hidden commands) */
    /* NAME [FORMAT] come first and name a dataset: POSITIONAL_USAGE stands for them in -h until
       one is named, then its name, and its options follow the usage. */
    enum dataset_argument dataset;
    bool dataset_required;
    /* The dataset's own options (mnist --dtype) are the command's too: merged into the parse, or
       passed as typed to an extra converter. */
    bool dataset_options;
    /* The -h answer; NULL: command_help. */
    int (*help)(const struct command_run *run);
};

/* An entry of the command table (fuel.c). */
struct command {
    const char *name;
    const char *summary; /* NULL: hidden, neither listed nor completed */
    const struct command_line *line;
    int (*body)(const struct command_run *run);
};

/* What a command's body (and its help) is handed. */
struct command_run {
    const struct command *command;
    const char *program;  /* "fuel-convert" */
    const void *options;  /* the command's options struct, parsed */
    const struct parsed_arguments *parsed;
    const struct typed_command *typed;
    const struct dataset_choice *dataset; /* the dataset commands' NAME [FORMAT]; else NULL */
    const void *dataset_options; /* the converter's options struct; NULL without a converter */
};

/* Runs COMMAND with ARGV[0] its program name ("fuel-convert"); TYPED is the command line as the
   user typed it. Returns the exit code. */
int command_run(const struct command *command, int argc, char **argv,
                const struct typed_command *typed);

/* A command line parsed as command_run parses it (NAME [FORMAT] resolved, the options stored, what
   is required checked unless -h was given), before any body runs: what the body would be handed.
   fuel-reproduce reads a recorded command line this way. */
struct command_invocation;

/* Parses ARGV (ARGV[0] the program) for COMMAND into *INVOCATION (freed with
   command_invocation_free, also after a failure): EXIT_USAGE after a usage error (printed, or
   recorded with usage_errors_record). TYPED and ARGV must outlive the invocation. */
int command_invocation_parse(const struct command *command, int argc, char **argv,
                             const struct typed_command *typed,
                             struct command_invocation **invocation);

/* What the body of the invocation's command would be handed. */
const struct command_run *command_invocation_run(const struct command_invocation *invocation);

/* Whether the command line asked for -h. */
bool command_invocation_help(const struct command_invocation *invocation);

void command_invocation_free(struct command_invocation *invocation);

/* The first two positionals of ARGV[0..ARGC) (no program name) against LINE's own options, read
   before a dataset's options are known (an unknown option takes the next argument as its value
   when LINE takes dataset options), and whether -h is among them; returns how many. */
size_t command_positionals(const struct command_line *line, int argc, char *const *argv,
                           const char *positionals[2], bool *help);

/* The tables RUN's command line is read against: the command's, and its dataset's options when
   the command takes them and RECORD has a built-in converter; values stored in VALUES and
   DATASET_VALUES (NULL: nothing stored). */
void command_tables(const struct command_line *line, const struct dataset *record, void *values,
                    void *dataset_values, struct option_tables *tables);

/* The generic -h: the usage line, the description (or RECORD's summary), the options. */
int command_help(const struct command_run *run);

/* The usage line (usage_line.h), with RECORD's name and format when not NULL. */
void command_help_usage(const struct command_run *run, const struct dataset *record);

/* The command's options, then RECORD's dataset options when the command takes them. */
void command_help_options(const struct command_run *run, const struct dataset *record);

/* The command table (fuel.c), COUNT entries, hidden ones included. */
const struct command *commands_list(size_t *count);

/* The command called NAME; NULL when none. */
const struct command *command_find(const char *name);

#endif
