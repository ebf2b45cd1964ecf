/* Streams the variables of MATLAB level-5 MAT-files in bounded memory: numeric arrays in blocks,
   character arrays as text, struct and cell arrays element by element. */
#ifndef FUEL_MATLAB_V5_READ_H
#define FUEL_MATLAB_V5_READ_H

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
/* Arrays nested deeper than this (structs in cells in structs ...) are refused. */
#define MATLAB_MAX_DEPTH 8
/* A struct's fields: at most this many, of names of at most MATLAB_MAX_FIELD_NAME bytes. */
#define MATLAB_MAX_FIELDS 4096
#define MATLAB_MAX_FIELD_NAME 256

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

/* Opens the SIZE bytes at BYTES (kept by the caller until matlab_close) as a MAT-file called NAME
   in messages. */
int matlab_open_memory(struct matlab_file **file, const void *bytes, size_t size,
                       const char *name);

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
/* Struct and cell arrays (a variable or a nested array of class MATLAB_STRUCT or MATLAB_CELL)
   are read element by element: each element is an array of its own, entered with matlab_child
   in the file's order (a struct's elements column-major, each element's fields in the order of
   matlab_field_name). A nested numeric array is then read with matlab_read, a character array
   with matlab_read_text; a nested struct or cell array becomes the container that matlab_child
   walks until matlab_leave goes back to its parent. What the caller leaves unread is skipped. */

/* Enters the next element of the innermost open container into CHILD (its name is empty);
   *FOUND is false when the container has none left. An empty element (MATLAB writes `[]` in a
   struct field as an array of no bytes) reads as a 0x0 double array. */
int matlab_child(struct matlab_file *file, struct matlab_variable *child, bool *found);

/* Skips what is left of the innermost open container and goes back to the one holding it. */
int matlab_leave(struct matlab_file *file);

/* The innermost open container's field count (0 for a cell array) and names. */
size_t matlab_field_count(const struct matlab_file *file);
const char *matlab_field_name(const struct matlab_file *file, size_t field);

/* Reads the current character array (1 x N, or empty) as UTF-8 into TEXT (CAPACITY bytes, NUL
   included), *LENGTH its bytes: stored as miUTF8 or miUINT8 bytes, or as miUINT16 code units
   (MATLAB's own, encoded to UTF-8 here). EXIT_CORRUPT_INPUT when it has several rows, holds
   more than CAPACITY - 1 bytes or is not a character array. */
int matlab_read_text(struct matlab_file *file, char *text, size_t capacity, size_t *length);

/* Bytes of one element of CLASS_ID as matlab_read delivers it; 0 for non-numeric classes. */
size_t matlab_class_size(enum matlab_class class_id);

void matlab_close(struct matlab_file *file);

#endif
