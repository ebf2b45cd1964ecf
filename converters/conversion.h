/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "common/hdf5/provenance.h"
#include "converter.h"

#include <stddef.h>

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; TYPED is the command line recorded. Writes the final path into PATH. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, const struct typed_command *typed, char *path,
                     size_t size);

#endif
