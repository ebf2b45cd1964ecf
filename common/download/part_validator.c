/* Stores and reads the resume validator of a .part file in an extended attribute. */
#include "part_validator.h"

#include <string.h>
#include <sys/types.h>
#include <sys/xattr.h>

static const char attribute_name[] = "user.fuel.validator";

int part_validator_read(const char *path, char validator[PART_VALIDATOR_SIZE])
{
    ssize_t length = getxattr(path, attribute_name, validator, PART_VALIDATOR_SIZE - 1);
    if (length <= 0)
        return -1;
    validator[length] = '\0';
    return strlen(validator) == (size_t)length ? 0 : -1;
}

void part_validator_write(int descriptor, const char *validator)
{
    if (validator[0] == '\0')
        fremovexattr(descriptor, attribute_name);
    else
        fsetxattr(descriptor, attribute_name, validator, strlen(validator), 0);
}
