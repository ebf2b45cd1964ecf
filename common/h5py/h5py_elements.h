/* Element values of the numeric types H5PYDataset sources hold: one as a double, arrays as floats. */
#ifndef FUEL_H5PY_ELEMENTS_H
#define FUEL_H5PY_ELEMENTS_H

#include <stdbool.h>
#include <stddef.h>

/* A native numeric type: numpy's kind ('u', 'i', 'f' or 'b', h5py's bool) and its size in bytes. */
struct numeric_type {
    char kind;
    size_t size;
};

/* The type a numpy dtype string ("|u1", "<f4", "|b1") names. */
struct numeric_type numeric_type_from_descr(const char *descr);

/* Element INDEX of the array at ELEMENTS as a double (a bool as 0 or 1). */
double element_value(const void *elements, size_t index, struct numeric_type type);

/* Converts COUNT elements to float32 (or float64 when DOUBLE_PRECISION) at OUT, each multiplied by
   SCALE (a bool taken as 0 or 1). ELEMENTS need not be aligned. */
void elements_to_float(const void *elements, struct numeric_type type, size_t count, double scale,
                       bool double_precision, void *out);

#endif
