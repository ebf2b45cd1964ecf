/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "common/hdf5/provenance.h"
#include "converter.h"

#include <limits.h>
#include <stddef.h>

/* The paths of a converter's inputs in the input directory. */
struct conversion_inputs {
    char paths[CONVERTER_MAX_INPUTS][PATH_MAX];
    const char *list[CONVERTER_MAX_INPUTS]; /* paths[0..count), for conversion_write */
    size_t count;
};

/* INPUTS: each input CONVERTER needs with ARGUMENTS, as ARGUMENTS->input_directory/NAME. */
void conversion_inputs_list(const struct converter *converter,
                            const struct converter_arguments *arguments,
                            struct conversion_inputs *inputs);

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; TYPED is the command line recorded. Writes the final path into PATH. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, const struct typed_command *typed, char *path,
                     size_t size);

#endif
