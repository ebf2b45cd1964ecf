/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "common/h5py/provenance.h"
#include "converter.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

/* The paths of a converter's inputs in the input directory. */
struct conversion_inputs {
    char paths[CONVERTER_MAX_INPUTS][PATH_MAX];
    const char *list[CONVERTER_MAX_INPUTS]; /* paths[0..count), for conversion_write */
    size_t count;
};

/* INPUTS: each input of ARGUMENTS' converter, as ARGUMENTS->input_directory/NAME. */
void conversion_inputs_list(const struct converter_arguments *arguments,
                            struct conversion_inputs *inputs);

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; TYPED is the command line recorded. Writes the final path into PATH. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, const struct typed_command *typed, char *path,
                     size_t size);

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
                             const char *name, const struct typed_command *typed, char *path,
                             size_t size);

#endif
