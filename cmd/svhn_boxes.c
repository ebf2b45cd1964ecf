/* fuel __svhn-boxes PATH LABEL DESCRIPTOR: the hidden reading process fuel-convert svhn 1 starts to
   read digitStruct.mat beside its own HDF5 work. */
#include "commands.h"
#include "converters/svhn_format_1_boxes.h"
#include "usage.h"

#include <stdlib.h>

const struct command_line svhn_boxes_command_line = {
    .positional_usage = "PATH LABEL DESCRIPTOR",
    .maximum_positionals = 3,
    .verbatim = true,
};

int svhn_boxes_body(const struct command_run *run)
{
    const struct parsed_arguments *parsed = run->parsed;
    char *end = NULL;
    long descriptor = parsed->positional_count == 3 ? strtol(parsed->positionals[2], &end, 10) : -1;
    if (parsed->positional_count != 3 || *end != '\0' || descriptor < 0 || descriptor > 65535)
        return usage_error(run->program, "expected PATH LABEL DESCRIPTOR");
    svhn_boxes_serve(parsed->positionals[0], parsed->positionals[1], (int)descriptor);
}
