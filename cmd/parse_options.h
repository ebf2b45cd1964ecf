/* Declarative command-line parsing shared by every command (git's parse-options shape): a table
   of options, the positional arguments, pass-through dataset options, and -h generated from it. */
#ifndef FUEL_PARSE_OPTIONS_H
#define FUEL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum option_kind {
    OPTION_FLAG,    /* bool *: set to true */
    OPTION_STRING,  /* const char **: the value (a pointer into argv, never modified) */
    OPTION_LIST,    /* struct option_list *: every value given, in order (repeatable) */
    OPTION_INTEGER, /* long *: a whole number from minimum to maximum */
    OPTION_DECIMAL, /* double *: a number from minimum to maximum */
    OPTION_COUNT,   /* int *: incremented each time (-v -v) */
};

/* What shell completion offers for an option's value or a positional argument. */
enum completion_kind {
    COMPLETE_NOTHING,
    COMPLETE_FILE,      /* file names */
    COMPLETE_DIRECTORY, /* directory names */
    COMPLETE_DATASET,   /* dataset names, then the dataset's formats */
    COMPLETE_CHOICE,    /* the words of choices */
    COMPLETE_FILE_OR_DATASET,
};

struct command_option {
    char short_name;        /* 'd'; 0 when none */
    const char *long_name;  /* "directory" (without dashes); NULL when none */
    const char *alias;      /* a second long name, e.g. Fuel's "output_filename"; NULL when none */
    enum option_kind kind;
    void *value;
    const char *argument;   /* the value's name in -h ("DIR"); NULL for flags and counts */
    const char *help;
    double minimum, maximum; /* bounds of OPTION_INTEGER and OPTION_DECIMAL */
    enum completion_kind completion;
    const char *choices;     /* space-separated words for COMPLETE_CHOICE; also checked */
};

#define OPTION_LIST_MAX 64

struct option_list {
    const char *items[OPTION_LIST_MAX];
    size_t count;
};

/* A dataset option (e.g. --dtype float32) passed on to the dataset's converter. */
#define PASSED_OPTION_MAX 8
struct passed_option {
    char name[64];     /* "--dtype" */
    const char *value; /* NULL when the command line ended without one */
};

struct command_line {
    const char *program;     /* "fuel-convert" */
    const char *usage;       /* what follows "usage: PROGRAM " in -h */
    const char *description; /* a paragraph after the usage line; NULL when none */
    const struct command_option *options;
    size_t option_count;
    size_t maximum_positionals;           /* more is a usage error */
    enum completion_kind positional_completion;
    const char *positional_choices; /* space-separated words for COMPLETE_CHOICE positionals */
    /* Options not in the table are kept, each with a value, in passed[] (the dataset's own
       options), instead of being a usage error. */
    bool pass_unknown;
    /* -h is the command's to answer (options_run passes it on): its help names the dataset. */
    bool own_help;
};

struct parsed_arguments {
    const char **positionals; /* into argv; free with parsed_arguments_free */
    size_t positional_count;
    struct passed_option passed[PASSED_OPTION_MAX];
    size_t passed_count;
    /* Every argument the table did not take (positionals, passed options and their values), as
       typed and in order: what an extra converter is given. */
    const char **words;
    size_t word_count;
    bool help;
};

/* Parses ARGV[1..ARGC) against LINE, storing option values through the table's pointers; options
   and positionals may be mixed, "--" ends the options. ARGV is never modified. On a usage error
   prints one line (usage_error) and returns EXIT_USAGE; -h/--help sets PARSED->help, and the rest
   is still parsed (a dataset after -h is kept) but no longer reported as a usage error. With
   pass_unknown, an unknown "-x" or "--name" is passed on with the next argument as its value. */
int options_parse(const struct command_line *line, int argc, char *const *argv,
                  struct parsed_arguments *parsed);

void parsed_arguments_free(struct parsed_arguments *parsed);

/* A command's entry point whole: parses ARGV against LINE, prints the help on -h (unless
   LINE->own_help), else returns BODY(PARSED); frees what parsing took. */
int options_run(const struct command_line *line, int argc, char *const *argv,
                int (*body)(const struct parsed_arguments *parsed));

/* "usage: PROGRAM USAGE", the description and the option table, generated from LINE. */
void options_print_help(const struct command_line *line, FILE *stream);

/* Only the "options:" part of the help. */
void options_print_table(const struct command_line *line, FILE *stream);

/* The option of LINE called NAME ("-d", "--directory", "--output_filename"); NULL when none. */
const struct command_option *options_find(const struct command_line *line, const char *name);

#endif
