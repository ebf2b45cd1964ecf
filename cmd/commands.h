/* Each command's declaration (its struct command_line: options, arguments, help) and body, from
   the one list of commands, commands.def; commands.c holds the table of them. */
#ifndef FUEL_COMMANDS_H
#define FUEL_COMMANDS_H

#include "runner.h"

#define COMMAND(identifier, name, summary)                                                         \
    extern const struct command_line identifier##_command_line;                                 \
    int identifier##_body(const struct command_run *run);
#include "commands.def"
#undef COMMAND

#endif
