/* Streams the numeric variables of MATLAB level-5 MAT-files, in bounded memory. */
#ifndef FUEL_MATLAB_V5_H
#define FUEL_MATLAB_V5_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum matlab_class {
    MATLAB_CELL = 1,
    MATLAB_STRUCT = 2,
    MATLAB_OBJECT = 3,
    MATLAB_CHAR = 4,
    MATLAB_SPARSE = 5,
    MATLAB_DOUBLE = 6,
    MATLAB_SINGLE = 7,
    MATLAB_INT8 = 8,
    MATLAB_UINT8 = 9,
    MATLAB_INT16 = 10,
    MATLAB_UINT16 = 11,
    MATLAB_INT32 = 12,
    MATLAB_UINT32 = 13,
    MATLAB_INT64 = 14,
    MATLAB_UINT64 = 15,
};

#define MATLAB_MAX_RANK 32
#define MATLAB_MAX_NAME 255

struct matlab_variable {
    char name[MATLAB_MAX_NAME + 1];
    enum matlab_class class_id;
    bool complex;
    int rank;
    uint64_t dimensions[MATLAB_MAX_RANK]; /* MATLAB order: column-major, first dimension fastest */
    uint64_t count;                       /* product of the dimensions */
    /* Numeric classes: the class whose C type the file stores the elements as (MATLAB keeps
       integer-valued doubles as uint8), which is what scipy.io.loadmat returns by default. */
    enum matlab_class stored_class;
};

struct matlab_file;

/* Opens PATH and checks its 128-byte header (text, version 0x0100, endian indicator). */
int matlab_open(struct matlab_file **file, const char *path);

/* Moves to the next variable of the file and describes it in VARIABLE; *found is false at the end.
   Whatever was left unread of the previous variable is skipped without inflating it. */
int matlab_next(struct matlab_file *file, struct matlab_variable *variable, bool *found);

/* Goes back to the first variable and moves to the one called NAME; *found false when absent. */
int matlab_find(struct matlab_file *file, const char *name, struct matlab_variable *variable,
                bool *found);

/* Reads the next COUNT elements (column-major) of the current variable's real part into DATA as
   its class's C type (double, float, int8_t, ..., uint64_t), widening the narrower type the file
   may store them as. Only numeric classes can be read. After the last element, the rest of a
   compressed element is inflated so that its checksum is verified. */
int matlab_read(struct matlab_file *file, void *data, uint64_t count);

/* Reads the next COUNT elements (column-major) of the current variable's real part into DATA as
   they are stored: the C type of the variable's stored_class, byte-swapped to ours. */
int matlab_read_stored(struct matlab_file *file, void *data, uint64_t count);

/* Bytes of one element of CLASS_ID as matlab_read delivers it; 0 for non-numeric classes. */
size_t matlab_class_size(enum matlab_class class_id);

void matlab_close(struct matlab_file *file);

#endif
