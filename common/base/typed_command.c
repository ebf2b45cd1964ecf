/* The command line as typed, joined into the one line fuel_convert_command records. */
#include "typed_command.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *typed_command_text(const struct typed_command *typed)
{
    size_t length = 1;
    for (int index = 0; index < typed->argc; index++)
        length += strlen(typed->argv[index]) + 1;
    char *command = malloc(length), *first = strdup(typed->argc > 0 ? typed->argv[0] : "");
    if (command == NULL || first == NULL) {
        free(command);
        free(first);
        return NULL;
    }
    size_t used = (size_t)snprintf(command, length, "%s", basename(first));
    for (int index = 1; index < typed->argc; index++)
        used += (size_t)snprintf(command + used, length - used, " %s", typed->argv[index]);
    free(first);
    return command;
}
