/* Extra converters: executables named fuel-convert-NAME in the extra_converters directories. */
#ifndef FUEL_EXTRA_CONVERTER_H
#define FUEL_EXTRA_CONVERTER_H

#include <stddef.h>

#define EXTRA_CONVERTER_PREFIX "fuel-convert-"

struct extra_converter {
    char *name; /* NAME of fuel-convert-NAME */
    char *path; /* DIRECTORY/fuel-convert-NAME */
};

struct extra_converters {
    struct extra_converter *items; /* in directory order, then name order within a directory */
    size_t count;
};

/* Lists the executable fuel-convert-NAME files of DIRECTORIES. A directory that cannot be read,
   or a NAME that is a built-in converter's or found in two directories: EXIT_USAGE naming it. */
int extra_converters_find(struct extra_converters *found, char *const *directories, size_t count);

/* The extra converter called NAME; NULL when none. */
const struct extra_converter *extra_converter_find(const struct extra_converters *found,
                                                   const char *name);

void extra_converters_free(struct extra_converters *found);

#endif
