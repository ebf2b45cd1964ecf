/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "converters/converter.h"

#include <jansson.h>
#include <stddef.h>

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; the command line recorded is the one typed. Writes the final path into PATH. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, char *path, size_t size);

/* What fills a fixture's writer: FILL(CONTEXT, writer). */
struct conversion_filler {
    int (*fill)(void *context, struct h5py_writer *writer);
    void *context;
};

/* As conversion_write, the writer filled by FILLER, with NOTE (a JSON object) first in the
   provenance under "fixture"; NOTE's "parent" object, when present, gets the sha256 of the first
   of INPUTS. */
int conversion_write_fixture(const struct conversion_filler *filler, const char *const *inputs,
                             size_t input_count, json_t *note, const char *directory,
                             const char *name, char *path, size_t size);

#endif
