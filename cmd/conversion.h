/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "datasets/converter.h"

#include <stddef.h>

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; the command line recorded is the one typed. Writes the final path into PATH. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, char *path, size_t size);

#endif
