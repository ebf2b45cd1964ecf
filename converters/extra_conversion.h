/* An extra converter run into a temporary file that is checked, tagged and published whole. */
#ifndef FUEL_EXTRA_CONVERSION_H
#define FUEL_EXTRA_CONVERSION_H

#include "converters/subprocess.h"
#include "common/h5py/provenance.h"
#include "extra.h"

#include <stddef.h>

/* The environment variable naming the temporary file an extra converter writes. */
#define EXTRA_OUTPUT_VARIABLE "FUEL_OUTPUT_FILE"

/* What an extra conversion is given: where, what, and the command line to record. */
struct extra_conversion {
    const struct extra_converter *converter;
    const char *input_directory;
    const char *output_directory;
    const char *output_filename;  /* .hdf5 appended as for -r; NULL: NAME.hdf5 */
    const char *const *arguments; /* given to the converter after -d DIR -o OUTDIR */
    size_t argument_count;
    const struct typed_command *typed;
    void (*violation)(const char *line); /* told each violation of the H5PYDataset rules */
};

/* Runs the converter as "PATH -d INPUT_DIRECTORY -o OUTPUT_DIRECTORY ARGUMENTS..." with
   FUEL_OUTPUT_FILE naming a temporary file in OUTPUT_DIRECTORY, checks the file with the
   H5PYDataset rules (each violation told to CONVERSION->violation), tags it (attributes,
   provenance of the inputs the converter printed) and publishes it. Writes the final path into
   PATH. EXIT_CORRUPT_INPUT when the converter fails or its file is invalid, the file then
   discarded. */
int extra_conversion_write(const struct extra_conversion *conversion, char *path, size_t size);

/* Runs "PATH -h ARGUMENTS..." and collects what it prints into RUN (caller frees RUN->output). */
int extra_conversion_help(const struct extra_converter *converter, const char *const *arguments,
                          size_t count, struct subprocess_result *run);

#endif
