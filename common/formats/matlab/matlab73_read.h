/* Reads MATLAB 7.3 MAT-files (HDF5 behind a 512-byte user block) held in memory, with libhdf5:
   struct arrays stored as a vector of object references, and their numeric and char fields. */
#ifndef FUEL_MATLAB73_READ_H
#define FUEL_MATLAB73_READ_H

#include <stddef.h>
#include <stdint.h>

struct matlab73;
/* A vector of object references, such as a struct array's field (`digitStruct/bbox`). */
struct matlab73_vector;

/* Values read from one field; reused across reads, grown as needed, freed by matlab73_numbers_free. */
struct matlab73_numbers {
    double *values;
    size_t count;
    size_t capacity;
};

/* Opens the SIZE bytes at IMAGE as an HDF5 file, read-only and without copying them: IMAGE must
   outlive the handle and is never written. NAME labels every error message. */
int matlab73_open(struct matlab73 **file, void *image, size_t size, const char *name);

/* Opens the MAT-file PATH with libhdf5's default file driver, which reads it piece by piece as
   needed: the file is never held whole. NAME labels every error message. */
int matlab73_open_file(struct matlab73 **file, const char *path, const char *name);

/* Opens PATH, a vector (N, 1xN or Nx1) of object references. EXIT_CORRUPT_INPUT if it is missing
   or something else. */
int matlab73_vector_open(struct matlab73 *file, const char *path, struct matlab73_vector **vector);

uint64_t matlab73_vector_length(const struct matlab73_vector *vector);

/* Reads the numeric dataset FIELD of the group that element INDEX references. MATLAB stores a
   struct array field either inline (the numbers themselves) or, as a cell, as references to
   datasets of one number each; both give the numbers in order. A dangling reference, a reference
   to anything but a one-number dataset, or a non-numeric field is EXIT_CORRUPT_INPUT. */
int matlab73_vector_numbers(struct matlab73_vector *vector, uint64_t index, const char *field,
                            struct matlab73_numbers *numbers);

/* As matlab73_vector_numbers for each of the COUNT fields FIELDS of the one group that element
   INDEX references (dereferenced once), into NUMBERS[0] to NUMBERS[COUNT - 1]. */
int matlab73_vector_fields(struct matlab73_vector *vector, uint64_t index,
                           const char *const *fields, size_t count,
                           struct matlab73_numbers *numbers);

/* Reads the char array (UTF-16 code units) that element INDEX references as ASCII text;
   EXIT_CORRUPT_INPUT if it is not ASCII or needs SIZE bytes or more. */
int matlab73_vector_text(struct matlab73_vector *vector, uint64_t index, char *text, size_t size);

void matlab73_vector_close(struct matlab73_vector *vector);
void matlab73_numbers_free(struct matlab73_numbers *numbers);
void matlab73_close(struct matlab73 *file);

#endif
