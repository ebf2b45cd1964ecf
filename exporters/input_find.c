/* Finds the HDF5 file that fuel export or fuel preview reads: a path, or a data path name. */
#include "input_find.h"

#include "common/base/config.h"
#include "common/base/error.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int input_find(const char *argument, char *path, size_t size)
{
    struct stat status;
    if (stat(argument, &status) == 0 || strchr(argument, '/') != NULL) {
        snprintf(path, size, "%s", argument);
        return EXIT_OK;
    }
    struct fuel_config config = {0};
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = data_path_find(&config, argument, path, size);
    if (result == EXIT_MISSING_INPUT) {
        char name[1024];
        snprintf(name, sizeof name, "%s.hdf5", argument);
        result = data_path_find(&config, name, path, size);
    }
    config_free(&config);
    return result;
}
