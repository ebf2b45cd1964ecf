/* What the files of the h5py reader share: h5py_reader.c (opening, closing, lookups),
   h5py_reader_strings.c (string attributes and arrays), h5py_reader_split.c (the split attribute)
   and h5py_reader_sources.c (each source's dataset, labels and scales). */
#ifndef FUEL_H5PY_READING_H
#define FUEL_H5PY_READING_H

#include "h5py_reader.h"

#include "common/base/error.h"

/* What every read is checked against: nothing stored in the file can be larger than the file. */
struct reading {
    struct h5py_file *file;
    uint64_t file_size;
};

static inline int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "out of memory");
}

/* h5py_reader.c: HDF5's innermost error description ("file signature not found"). */
const char *hdf5_reason(char reason[256]);

/* h5py_reader.c: adds NAME to LIST unless it is there already, keeping the order of first
   appearance. */
int distinct_add(char ***list, size_t *count, const char *name);

/* h5py_reader_strings.c: a fixed-length string without its padding; a copy of a variable-length
   string ("" for NULL); the memory type for a variable-length string of the file type STORED. */
char *string_from_fixed(const char *bytes, size_t size);
char *string_from_variable(const char *text);
hid_t variable_string_type(hid_t stored);

/* h5py_reader_strings.c: reads a scalar or one-element string attribute; 1 when it holds no
   string (left out). */
int string_attribute_read(struct reading *reading, hid_t attribute, const char *name,
                          char **value);

/* h5py_reader_strings.c: reads the strings of a one-dimensional attribute, or of a dataset when
   ATTRIBUTE is negative, into STRINGS (COUNT entries, at most LIMIT). 1 when malformed. */
int string_array_read(struct reading *reading, hid_t attribute, hid_t dataset, size_t limit,
                      char ***strings, size_t *count);

/* h5py_reader_strings.c: the string root attributes, in HDF5's name order. */
int root_attributes_read(struct reading *reading);

/* h5py_reader_split.c: the rows of the `split` attribute. */
int split_attribute_read(struct reading *reading);

/* h5py_reader_sources.c: the sources the split rows name, in order of first appearance. */
int sources_read(struct reading *reading);

#endif
