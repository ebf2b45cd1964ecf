/* fuel __svhn-boxes PATH LABEL DESCRIPTOR: the hidden reading process fuel-convert svhn 1 starts to
   read digitStruct.mat beside its own HDF5 work. */
#include "commands.h"
#include "converters/svhn_boxes.h"
#include "usage.h"

#include <stdlib.h>

int cmd_svhn_boxes(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    char *end;
    long descriptor = argc == 4 ? strtol(argv[3], &end, 10) : -1;
    if (argc != 4 || *end != '\0' || descriptor < 0 || descriptor > 65535)
        return usage_error("fuel-__svhn-boxes", "expected PATH LABEL DESCRIPTOR");
    svhn_boxes_serve(argv[1], argv[2], (int)descriptor);
}
