/* What fuel-convert's built-in path (convert.c) shares with its extra-converter path (convert_extra.c). */
#ifndef FUEL_CMD_CONVERT_H
#define FUEL_CMD_CONVERT_H

#include "../converters/extra.h"

#include <stddef.h>

/* The environment variable naming the temporary file an extra converter writes. */
#define EXTRA_OUTPUT_VARIABLE "FUEL_OUTPUT_FILE"

/* GIVEN (-r) with .hdf5 appended unless it ends in .hdf5, .hdf or .h5. */
void output_file_name(const char *given, char *name, size_t size);

/* EXIT_WRITE unless DIRECTORY is an existing directory. */
int check_output_directory(const char *directory);

/* fuel-convert NAME ... for an extra converter: ARGV as fuel-convert received it. */
int convert_extra(const struct extra_converter *converter, int argc, char **argv);

#endif
