/* Element values of the numeric types H5PYDataset sources hold, converted for the export forms. */
#ifndef FUEL_ELEMENTS_H
#define FUEL_ELEMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A native element type: 'u', 'i', 'f' or 'b' (h5py's bool) and its size in bytes. */
struct element_type {
    char kind;
    size_t size;
};

/* The type a numpy dtype string ("|u1", "<f4", "|b1") names. */
struct element_type element_type_from_descr(const char *descr);

/* Element INDEX of the array at ELEMENTS as a double. */
double element_value(const void *elements, size_t index, struct element_type type);

/* Converts COUNT elements to float32 (or float64 when DOUBLE_PRECISION), each multiplied by SCALE. */
void elements_to_float(const void *elements, struct element_type type, size_t count, double scale,
                       bool double_precision, void *out);

/* Element INDEX as an 8-bit pixel: integers clamped to 0..255, bools 0 or 255, floats taken as
   0..1 and scaled to 0..255 (rounded, clamped). */
uint8_t element_pixel(const void *elements, size_t index, struct element_type type);

/* "7", "0.5": a label value as text (integers without a fraction). */
void element_label_text(double value, char *text, size_t size);

#endif
