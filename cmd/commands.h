/* Each command's declaration (its struct command_line: options, arguments, help) and body,
   listed in fuel.c's command table. */
#ifndef FUEL_COMMANDS_H
#define FUEL_COMMANDS_H

#include "runner.h"

#define COMMAND(name)                                                                              \
    extern const struct command_line name##_command_line;                                      \
    int name##_body(const struct command_run *run)

COMMAND(cache);
COMMAND(clean);
COMMAND(completion);
COMMAND(complete);
COMMAND(convert);
COMMAND(diff);
COMMAND(download);
COMMAND(export);
COMMAND(fetch);
COMMAND(fixture);
COMMAND(info);
COMMAND(list);
COMMAND(pack);
COMMAND(path);
COMMAND(preview);
COMMAND(reproduce);
COMMAND(serve);
COMMAND(stats);
COMMAND(svhn_boxes);

#undef COMMAND

#endif
