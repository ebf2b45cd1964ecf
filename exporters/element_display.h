/* Element values as the export forms show them: pixels and label text. */
#ifndef FUEL_ELEMENT_DISPLAY_H
#define FUEL_ELEMENT_DISPLAY_H

#include "common/h5py/h5py_elements.h"

#include <stddef.h>
#include <stdint.h>

/* Element INDEX as an 8-bit pixel: integers clamped to 0..255, bools 0 or 255, floats taken as
   0..1 and scaled to 0..255 (rounded, clamped). */
uint8_t element_pixel(const void *elements, size_t index, struct numeric_type type);

/* "7", "0.5": a label value as text (integers without a fraction). */
void element_label_text(double value, char *text, size_t size);

#endif
