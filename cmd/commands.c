/* The table of fuel's commands, from commands.def, and the lookup of one by name. */
#include "commands.h"

#include <string.h>

static const struct command commands[] = {
#define COMMAND(identifier, name, summary)                                                         \
    {name, summary, &identifier##_command_line, identifier##_body},
#include "commands.def"
#undef COMMAND
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

const struct command *commands_list(size_t *count)
{
    *count = COMMAND_COUNT;
    return commands;
}

const struct command *command_find(const char *name)
{
    for (size_t index = 0; index < COMMAND_COUNT; index++)
        if (strcmp(commands[index].name, name) == 0)
            return &commands[index];
    return NULL;
}
