/* What a dataset or format name may hold: manifests declare them, extra converters carry them. */
#include "dataset_name.h"

#include <ctype.h>
#include <string.h>

enum { NAME_MAX_LENGTH = 64 };

bool dataset_name_valid(const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length > NAME_MAX_LENGTH || name[0] == '-' || name[0] == '.')
        return false;
    for (size_t index = 0; index < length; index++)
        if (!isalnum((unsigned char)name[index]) && strchr("_.-", name[index]) == NULL)
            return false;
    return true;
}
