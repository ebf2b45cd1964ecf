/* Element conversion on the way into a packed file (a source's `dtype:` and `scale:`). */
#ifndef FUEL_PACK_ELEMENTS_H
#define FUEL_PACK_ELEMENTS_H

#include "common/h5py/h5py_writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A conversion from FROM to TO, values multiplied by SCALE first when SCALED (TO is then a float
   type): in float64, then rounded once to TO. Integers and bools convert exactly; a value TO
   cannot hold (a float's NaN or infinity or one out of range for an integer TO, truncated toward
   zero; an integer out of TO's range) is refused, where numpy's astype would wrap. */
struct element_conversion {
    enum element_type from;
    enum element_type to;
    bool scaled;
    double scale;
};

/* Whether CONVERSION changes anything (else the elements are written as they are); always for
   bools, whose bytes other than 0 and 1 it makes 1. */
bool element_conversion_needed(const struct element_conversion *conversion);

/* Converts COUNT elements at INPUT into OUTPUT; false when one cannot be held by the target type,
   *BAD then its position and TEXT (SIZE bytes) its value. */
bool element_convert(const struct element_conversion *conversion, const void *input, void *output,
                     size_t count, size_t *bad, char *text, size_t size);

/* Swaps the bytes of COUNT elements of ITEM_SIZE bytes at DATA in place (big-endian inputs). */
void element_swap(void *data, size_t item_size, size_t count);

#endif
