/* Declarative command-line parsing (git's parse-options shape): option tables, the tokenizer that
   the parser and shell completion both walk, and the parse that stores values through the tables
   into the structs they describe. */
#ifndef FUEL_PARSE_OPTIONS_H
#define FUEL_PARSE_OPTIONS_H

#include "common/base/command_option.h"

#include <stdbool.h>
#include <stddef.h>

/* A table of options and the struct their offsets point into. */
struct option_table {
    const struct command_option *options;
    size_t count;
    void *values; /* NULL: nothing is stored (completion only reads) */
};

/* The tables a command line is read against: the command's, then its dataset's (--dtype). */
#define OPTION_TABLES_MAX 2
struct option_tables {
    struct option_table tables[OPTION_TABLES_MAX];
    size_t count;
};

enum token_kind {
    TOKEN_POSITIONAL,
    TOKEN_OPTION,  /* an option of the tables */
    TOKEN_UNKNOWN, /* an option no table has */
    TOKEN_HELP,    /* -h or --help */
};

/* One argument, or one letter of a cluster of short options ("-qd DIR"), as the tokenizer reads
   it. */
struct token {
    enum token_kind kind;
    char name[128]; /* the option as typed without =VALUE ("--dtype", "-d"); an unknown cluster
                       whole ("-Zq") */
    const struct command_option *option; /* TOKEN_OPTION */
    const struct option_table *table;    /* TOKEN_OPTION: the table holding it */
    /* A positional itself; an option's value, attached (--name=VALUE, -dVALUE) or the next
       argument; NULL for flags, and when the arguments ended before the value. */
    const char *value;
    bool value_attached; /* the value came in the option's own argument */
    bool value_missing; /* takes a value, and the arguments ended before it */
    bool flag_valued;   /* a flag given --flag=VALUE */
    const char *argument; /* the argument the token was read from */
};

struct tokenizer {
    const struct option_tables *tables;
    bool pass_unknown; /* an unknown option takes the next argument as its value */
    int count;
    char *const *arguments;
    int index;
    const char *argument; /* the argument being read */
    const char *cluster;  /* the letters of "-qvd" not read yet */
    bool options_ended;  /* after "--" */
};

/* Reads ARGUMENTS[0..COUNT) against TABLES. */
void tokenizer_start(struct tokenizer *tokenizer, const struct option_tables *tables,
                     bool pass_unknown, int count, char *const *arguments);

/* The next token into TOKEN; false at the end. */
bool tokenizer_next(struct tokenizer *tokenizer, struct token *token);

/* The option of TABLES called NAME ("-d", "--directory", "--output_filename"), and its table
   when TABLE is not NULL; NULL when none. */
const struct command_option *options_find(const struct option_tables *tables, const char *name,
                                          const struct option_table **table);

/* How a command takes its arguments besides the tables. */
struct parse_rules {
    const char *program;         /* "fuel-convert", for the usage errors */
    size_t maximum_positionals;  /* more is a usage error */
    bool pass_unknown;           /* unknown options are kept as words, with their values */
    bool verbatim;               /* every argument is a positional, options included */
};

struct parsed_arguments {
    const char **positionals; /* into argv; free with parsed_arguments_free */
    size_t positional_count;
    /* Every argument the tables did not take (positionals, unknown options and their values),
       as typed and in order: what an extra converter is given. */
    const char **words;
    size_t word_count;
    bool help;
    /* The first option given from the second table (the dataset's), as typed; "" when none. */
    char dataset_option[128];
};

/* Parses ARGV[0..ARGC) against TABLES, storing each value at its option's offset in its table's
   values; options and positionals may be mixed, "--" ends the options, ARGV is never modified.
   -h/--help anywhere sets PARSED->help; the first mistake, -h or not, prints one usage-error line
   (an unknown option with the closest ones, a choice with the valid values) and returns
   EXIT_USAGE. */
int options_parse(const struct option_tables *tables, const struct parse_rules *rules, int argc,
                  char *const *argv, struct parsed_arguments *parsed);

void parsed_arguments_free(struct parsed_arguments *parsed);

/* Whether OPTION takes a value. */
bool option_takes_value(const struct command_option *option);

#endif
