/* What fuel-convert's built-in path (convert.c) shares with the extra one (convert_extra.c). */
#ifndef FUEL_CMD_CONVERT_H
#define FUEL_CMD_CONVERT_H

#include "datasets/extra.h"

#include <stddef.h>

/* The environment variable naming the temporary file an extra converter writes. */
#define EXTRA_OUTPUT_VARIABLE "FUEL_OUTPUT_FILE"

/* GIVEN (-r) with .hdf5 appended unless it ends in .hdf5, .hdf or .h5. */
void output_file_name(const char *given, char *name, size_t size);

/* EXIT_WRITE unless DIRECTORY is an existing directory. */
int check_output_directory(const char *directory);

/* Runs CONVERTER as "PATH -d INPUT_DIRECTORY -o OUTPUT_DIRECTORY ARGUMENTS..." with
   FUEL_OUTPUT_FILE naming a temporary file in OUTPUT_DIRECTORY, checks the file with the
   H5PYDataset rules, tags it (attributes, provenance of the inputs the converter printed) and
   publishes it as OUTPUT_FILENAME (.hdf5 appended as for -r; NULL: NAME.hdf5). Writes the final
   path into PATH. EXIT_CORRUPT_INPUT when the converter fails or its file is invalid, the file
   then discarded. */
int extra_conversion_write(const struct extra_converter *converter, const char *input_directory,
                           const char *output_directory, const char *output_filename,
                           char *const *arguments, size_t count, char *path, size_t size);

/* fuel-convert NAME ... for an extra converter: ARGV as fuel-convert received it. */
int convert_extra(const struct extra_converter *converter, int argc, char **argv);

#endif
