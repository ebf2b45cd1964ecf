/* Writes Python 2 pickles, protocol 2, as cPickle wrote CIFAR's batches: a dict of byte strings,
   lists of integers or byte strings, and uint8 numpy arrays, streamed to a file. */
#ifndef FUEL_PICKLE_WRITE_H
#define FUEL_PICKLE_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pickle_writer {
    FILE *file;
};

/* The protocol header and an empty dict whose items follow (key, value, key, value, ...). */
void pickle_write_dict_begin(struct pickle_writer *writer);
void pickle_write_dict_end(struct pickle_writer *writer);

void pickle_write_text(struct pickle_writer *writer, const char *text);
void pickle_write_integer(struct pickle_writer *writer, int64_t value);

/* A list: begin, its items, end. */
void pickle_write_list_begin(struct pickle_writer *writer);
void pickle_write_list_end(struct pickle_writer *writer);

/* A uint8 numpy array of ROWS x COLUMNS (C order): begin, exactly ROWS * COLUMNS bytes written to
   the file by the caller, end. */
void pickle_write_array_begin(struct pickle_writer *writer, uint64_t rows, uint64_t columns);
void pickle_write_array_end(struct pickle_writer *writer);

/* The final STOP; EXIT_WRITE naming PATH when anything failed to be written. */
int pickle_write_finish(struct pickle_writer *writer, const char *path);

#endif
