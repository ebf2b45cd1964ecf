/* The numbers a MAT-file stores, as the C type of their array's class (widened, byte-swapped). */
#ifndef FUEL_MATLAB_V5_VALUES_H
#define FUEL_MATLAB_V5_VALUES_H

#include "matlab_v5_read.h"
#include "matlab_v5_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of one element of data TYPE (miINT8 ... miUINT64); 0 for the others. */
size_t matlab_stored_size(uint32_t type);

/* The class whose C type data TYPE holds unchanged (MI_UINT8: MATLAB_UINT8); 0 for the others. */
enum matlab_class matlab_stored_class(uint32_t type);

/* The data type that holds CLASS_ID's C type unchanged; 0 for non-numeric classes. */
uint32_t matlab_natural_type(enum matlab_class class_id);

/* Copies SIZE bytes into VALUE, reversing them when SWAP (the file's byte order is not ours). */
void matlab_load(const unsigned char *bytes, size_t size, bool swap, void *value);

/* Widens COUNT elements of data type STORED_TYPE at STORED into OUTPUT as CLASS_ID's C type;
   false when a value does not fit an integer class. */
bool matlab_widen(enum matlab_class class_id, uint32_t stored_type, bool swap,
                  const unsigned char *stored, void *output, size_t count);

/* Reverses the SIZE bytes of each of COUNT elements at DATA. */
void matlab_swap_in_place(unsigned char *data, size_t size, uint64_t count);

#endif
