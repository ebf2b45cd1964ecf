/* Writes a converter's output file: temporary, provenance, Fuel's attributes, published whole. */
#ifndef FUEL_CONVERSION_H
#define FUEL_CONVERSION_H

#include "common/base/progress.h"
#include "converters/converter.h"

#include <stddef.h>

/* Converts INPUTS (hashed into the provenance) with CONVERTER into DIRECTORY/NAME, published only
   when complete; the command line recorded is the one typed. Writes the final path into PATH.
   MODE PROGRESS_LIVE redraws one line on stderr with the converter's stage and counts; any other
   mode draws nothing. */
int conversion_write(const struct converter *converter, const struct converter_arguments *arguments,
                     const char *const *inputs, size_t input_count, const char *directory,
                     const char *name, enum progress_mode mode, char *path, size_t size);

enum { CONVERSION_MAX_THREADS = 256 };

/* The default of --threads: the online CPUs (at most CONVERSION_MAX_THREADS). */
unsigned conversion_default_threads(void);

/* Parses --threads VALUE (1 to CONVERSION_MAX_THREADS) into *THREADS; a usage error of PROGRAM
   otherwise. */
int conversion_parse_threads(const char *program, const char *value, unsigned *threads);

#endif
