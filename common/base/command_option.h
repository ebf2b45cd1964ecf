/* One entry of an option table, the way commands declare their options and datasets declare
   theirs (mnist's --dtype): read by the command runner's parser, its -h, shell completion and
   fuel-reproduce. */
#ifndef FUEL_COMMAND_OPTION_H
#define FUEL_COMMAND_OPTION_H

#include <stdbool.h>
#include <stddef.h>

enum option_kind {
    OPTION_FLAG,    /* bool: set to true */
    OPTION_STRING,  /* const char *: the value (a pointer into argv, never modified) */
    OPTION_LIST,    /* struct option_list: every value given, in order (repeatable) */
    OPTION_INTEGER, /* long: a whole number from minimum to maximum */
    OPTION_DECIMAL, /* double: a number from minimum to maximum */
    OPTION_COUNT,   /* int: incremented each time (-v -v) */
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

/* What fuel-reproduce does with the option in a recorded command of a command whose files it makes
   again (every option of theirs declares one; tests/unit/test_command_tables.c). */
enum reproduce_rule {
    REPRODUCE_UNDECLARED, /* none: the recorded option is unknown to fuel-reproduce */
    REPRODUCE_KEPT,       /* re-run as recorded (counts, seeds) */
    REPRODUCE_REPLACED,   /* a directory or file: replaced by the scratch directory, or the inputs
                             found */
    REPRODUCE_IGNORED,    /* changes how the file is made, not what it holds (threads, progress) */
    REPRODUCE_FILE_NAME,  /* the output's name: a plain name, else hostile */
    REPRODUCE_REFUSED,    /* makes no HDF5 file */
};

/* Where an option stands in its command's usage line, which cmd/usage_line.c writes from the
   table, in the table's order. */
enum usage_place {
    USAGE_SHOWN,   /* [-x ARG] (-x ARG when required; [-x ARG]... when repeatable) */
    USAGE_INSIDE,  /* inside the brackets of the shown entry before it: [--a [-x ARG]] */
    USAGE_EITHER,  /* an alternative to the shown entry before it: [--a N | -x ARG] */
    USAGE_OPTIONS, /* one of "[options]": listed in -h's options only */
};

/* Which form of a command with two (fuel-fixture NAME, fuel-fixture --from FILE) shows it. */
enum usage_form {
    USAGE_BOTH_FORMS,
    USAGE_FIRST_FORM,       /* only in the first */
    USAGE_SECOND_FORM,      /* only in the second */
    USAGE_SECOND_FORM_HEAD, /* what the second form starts with, unbracketed */
};

struct command_option {
    char short_name;        /* 'd'; 0 when none */
    const char *long_name;  /* "directory" (without dashes); NULL when none */
    const char *alias;      /* a second long name, e.g. Fuel's "output_filename"; NULL when none */
    enum option_kind kind;
    /* Where the value goes: offsetof the member in the options struct the table fills (the
       command's, or the dataset converter's). */
    size_t offset;
    const char *argument;   /* the value's name in -h and the usage line ("DIR"); NULL for flags
                               and counts, and for choices, shown as {a,b} */
    const char *help;
    double minimum, maximum; /* bounds of OPTION_INTEGER and OPTION_DECIMAL */
    enum completion_kind completion;
    const char *choices;     /* space-separated words the value must be one of; NULL: any */
    bool required;           /* its absence is a usage error ("missing --to FORM") */
    enum reproduce_rule reproduce;
    enum usage_place usage;
    enum usage_form usage_form;
    bool usage_long_name;    /* the usage line names it --long though it has a short name */
};

#define OPTION_LIST_MAX 64

struct option_list {
    const char *items[OPTION_LIST_MAX];
    size_t count;
};

#endif
