/* Writes MATLAB level-5 MAT-files as scipy.io.savemat(do_compression=True) does: a 128-byte header,
   then one zlib-compressed element per numeric variable, its data streamed. */
#ifndef FUEL_MATLAB_V5_WRITE_H
#define FUEL_MATLAB_V5_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

enum matlab_writer_class {
    MATLAB_WRITE_UINT8,  /* mxUINT8_CLASS, elements miUINT8 */
    MATLAB_WRITE_DOUBLE, /* mxDOUBLE_CLASS, elements miDOUBLE */
    /* mxDOUBLE_CLASS, elements miUINT8: how MATLAB saves doubles whose values fit a byte; the
       data given are then bytes. */
    MATLAB_WRITE_DOUBLE_AS_UINT8,
};

struct matlab_writer {
    FILE *file;
    const char *path;
    z_stream stream;
    long size_offset;   /* where the compressed element's byte count goes */
    uint64_t data_bytes; /* declared, to pad after the data */
    int failed;
};

/* The 128-byte MAT-file header: TEXT padded with spaces to 116 bytes, no subsystem offset,
   VERSION (0x0100 for level 5, 0x0200 for 7.3) and the endian indicator "IM". */
void matlab_header_fill(unsigned char header[128], const char *text, unsigned version);

/* Creates PATH and writes the header, TEXT its descriptive text (at most 116 bytes kept). */
int matlab_writer_open(struct matlab_writer *writer, const char *path, const char *text);

/* Starts variable NAME of class CLASS with the column-major DIMENSIONS (RANK of them); exactly
   their product of elements follows through matlab_writer_data. */
int matlab_writer_begin(struct matlab_writer *writer, const char *name,
                        enum matlab_writer_class class, const uint32_t *dimensions, int rank);

/* SIZE bytes of the variable's elements, in column-major order, little-endian. */
int matlab_writer_data(struct matlab_writer *writer, const void *data, size_t size);

int matlab_writer_end(struct matlab_writer *writer);

/* A value of a struct field or a cell: numbers (a 1 x COUNT row, 0 x 0 when COUNT is 0) of class
   double, uint8 or uint16 (NUMBERS given as doubles, each a whole number in the class's range),
   text (a 1 x N char array stored as MATLAB's 16-bit code units, ASCII), or a 1 x COUNT cell
   array of VALUES. */
struct matlab_value {
    enum {
        MATLAB_VALUE_DOUBLES,
        MATLAB_VALUE_UINT8S,
        MATLAB_VALUE_UINT16S,
        MATLAB_VALUE_TEXT,
        MATLAB_VALUE_CELL
    } kind;
    const double *numbers;
    const char *text;
    const struct matlab_value *values;
    size_t count;
};

/* Writes variable NAME, a COUNT x 1 struct array of FIELD_COUNT FIELDS, as MATLAB does: VALUES
   holds COUNT x FIELD_COUNT values, element by element, each element's fields in order. */
int matlab_writer_struct(struct matlab_writer *writer, const char *name, uint32_t count,
                         const char *const *fields, size_t field_count,
                         const struct matlab_value *values);

/* Writes variable NAME, a 1 x COUNT cell array of VALUES (scipy.io.loadmat reads it as an object
   array), as MATLAB does. */
int matlab_writer_cell(struct matlab_writer *writer, const char *name,
                       const struct matlab_value *values, size_t count);

/* Writes the COUNT-byte miMATRIX element at MATRIX (tag included) in its miCOMPRESSED element. */
int matlab_writer_matrix(struct matlab_writer *writer, const void *matrix, size_t count);

/* Closes the file; EXIT_WRITE when anything failed. */
int matlab_writer_close(struct matlab_writer *writer);

#endif
