/* The MATLAB level-5 reader's state and the steps its files share: matlab_v5.c (the file, its
   top-level elements and numeric arrays) and matlab_v5_containers.c (struct and cell arrays,
   whose elements are nested arrays, and character arrays). */
#ifndef FUEL_MATLAB_V5_READ_STATE_H
#define FUEL_MATLAB_V5_READ_STATE_H

#include "matlab_v5_read.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HEADER_SIZE 128
#define INPUT_SIZE (128 * 1024)
#define STAGING_ELEMENTS 4096
/* Deflate cannot expand data by more than 1032:1, so no compressed element holds more. */
#define MAX_DEFLATE_RATIO 1032

/* An array being read: the top-level variable (frame 0), or a struct field's or cell's array
   nested in the container below it. */
struct matlab_frame {
    uint64_t parent_left;   /* the enclosing array's bytes left after this one and its padding */
    bool container;         /* a struct or cell array whose elements are read one by one */
    uint64_t children_left; /* containers: nested arrays not yet entered */
    char *field_names;      /* structs: field_count names of name_length bytes, NUL-padded */
    size_t field_count;
    size_t name_length;
};

struct matlab_file {
    FILE *stream;
    char *path;
    bool swap;
    uint64_t size;
    uint64_t next_element; /* file offset of the next top-level element */
    /* The top-level element being read. */
    bool compressed;
    struct inflater *inflater; /* made at the first compressed element, reset at each */
    uint64_t input_left;  /* bytes of the element still unread in the file */
    uint64_t matrix_left; /* bytes of the innermost array's contents not yet read */
    unsigned char small[4]; /* data of a small-data-element tag, served before the stream */
    size_t small_left;
    /* The arrays entered, the top-level variable first. */
    struct matlab_frame frames[MATLAB_MAX_DEPTH];
    int depth;
    struct matlab_variable leaf; /* the innermost array entered */
    bool text_pending;           /* a character array whose data was not read yet */
    /* The current variable's real part. */
    bool readable;
    enum matlab_class class_id;
    uint32_t stored_type;
    uint64_t elements_left;
    size_t padding; /* bytes after the real part's data, up to the next 8-byte boundary */
    unsigned char input[INPUT_SIZE];
    unsigned char staging[STAGING_ELEMENTS * 8];
};

struct matlab_tag {
    uint32_t type;
    uint64_t size;
    size_t padding; /* after the data; 0 for small data elements, whose data sits in the tag */
};

/* EXIT_CORRUPT_INPUT with "cannot read MATLAB file: PATH: why". */
int matlab_corrupt(struct matlab_file *file, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

uint32_t matlab_load_word(const struct matlab_file *file, const unsigned char *bytes);

/* Reads or skips SIZE bytes of the innermost array, which must still hold them. */
int matlab_matrix_read(struct matlab_file *file, void *data, size_t size);
int matlab_matrix_skip(struct matlab_file *file, uint64_t size);

/* Reads a subelement tag; a small data element's bytes are kept to be read next. */
int matlab_read_tag(struct matlab_file *file, struct matlab_tag *tag);

/* Reads a whole subelement of TYPE into DATA (at most CAPACITY bytes); *size gets its length. */
int matlab_read_subelement(struct matlab_file *file, uint32_t type, const char *what, void *data,
                           size_t capacity, size_t *size);

/* Reads an array's flags, dimensions and name, and a numeric array's real-part tag. */
int matlab_read_matrix(struct matlab_file *file, struct matlab_variable *variable);

/* After an array's flags, dimensions and name: a struct's field names, a container's element
   count, a character array's pending text; pushes the frame of a container. */
int matlab_container_enter(struct matlab_file *file, struct matlab_variable *variable);

/* Pops every frame, freeing their field names. */
void matlab_frames_clear(struct matlab_file *file);

#endif
