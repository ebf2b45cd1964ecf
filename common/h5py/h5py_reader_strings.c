/* The strings of an H5PYDataset file: fixed and variable-length, in attributes and arrays. */
#include "h5py_reading.h"

#include "attribute_direct.h"
#include "common/base/error.h"
#include "common/base/provenance_text.h"
#include "vlen_lengths.h"

#include <stdlib.h>
#include <string.h>

/* A fixed-length string without its padding (nulls, or spaces for space-padded strings). */
char *string_from_fixed(const char *bytes, size_t size)
{
    size_t length = strnlen(bytes, size);
    while (length > 0 && bytes[length - 1] == ' ')
        length--;
    return strndup(bytes, length);
}

char *string_from_variable(const char *text)
{
    return strdup(text != NULL ? text : "");
}

/* The memory type for a variable-length string of the file type STORED, in its character set:
   HDF5 converts no string between ASCII and UTF-8 (h5py 3 writes a str as UTF-8). */
hid_t variable_string_type(hid_t stored)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5T_cset_t set = H5Tget_cset(stored);
    if (type >= 0 &&
        (H5Tset_size(type, H5T_VARIABLE) < 0 || set < 0 || H5Tset_cset(type, set) < 0)) {
        H5Tclose(type);
        return -1;
    }
    return type;
}

static int unreadable_attribute(const struct reading *reading, const char *name)
{
    return error_set(EXIT_CORRUPT_INPUT, "unreadable attribute: %s: %s", reading->file->path,
                     name);
}

static int too_long(const struct reading *reading, const char *name, uint64_t length)
{
    return error_set(EXIT_CORRUPT_INPUT, "attribute %s declares %llu bytes: %s: more than the %zu "
                     "read", name, (unsigned long long)length, reading->file->path,
                     PROVENANCE_TEXT_MAX_BYTES);
}

/* The length the attribute's heap ID declares checked before anything is allocated (at most the
   provenance cap, no more than the file holds), then its object read from the file itself where
   fuel can read the file: 0 with *TEXT set, 1 when HDF5 is to read it, or the failure. */
static int declared_string_read(struct reading *reading, hid_t attribute, const char *name,
                                char **text)
{
    uint64_t length, longest;
    unsigned char id[VLEN_HEAP_ID_BYTES];
    if (vlen_lengths_read(attribute, -1, 1, &length, &longest) < 0)
        return unreadable_attribute(reading, name);
    if (length > PROVENANCE_TEXT_MAX_BYTES)
        return too_long(reading, name, length);
    if (length > reading->file_size)
        return unreadable_attribute(reading, name);
    if (vlen_heap_id_read(attribute, id) < 0)
        return 1;
    switch (attribute_direct_heap_read(reading->file->handle, id, text)) {
    case ATTRIBUTE_DIRECT_READ: return 0;
    case ATTRIBUTE_DIRECT_UNSEEN: return 1;
    case ATTRIBUTE_DIRECT_NO_MEMORY: return out_of_memory();
    default: return unreadable_attribute(reading, name);
    }
}

static int variable_string_attribute_read(struct reading *reading, hid_t attribute, hid_t type,
                                          hid_t space, const char *name, char **value)
{
    int direct = declared_string_read(reading, attribute, name, value);
    if (direct != 1)
        return direct;
    hid_t memory = variable_string_type(type);
    char *text = NULL;
    int result = memory < 0 ? out_of_memory() : 0;
    if (result == 0 && H5Aread(attribute, memory, &text) < 0)
        result = unreadable_attribute(reading, name);
    /* H5Aread has no transfer list: its string comes from plain malloc (HDF5 1.10's
       H5T__vlen_mem_str_write), so it is kept as it is, not copied (a provenance may be 200 MB). */
    if (result == 0 && text != NULL)
        *value = text;
    else if (result == 0 && (*value = string_from_variable(text)) == NULL)
        result = out_of_memory();
    if (result != 0 && text != NULL)
        H5Dvlen_reclaim(memory, space, H5P_DEFAULT, &text);
    if (memory >= 0)
        H5Tclose(memory);
    return result;
}

static int fixed_string_attribute_read(struct reading *reading, hid_t attribute, hid_t type,
                                       const char *name, char **value)
{
    size_t size = H5Tget_size(type);
    if (size > reading->file_size)
        return error_set(EXIT_CORRUPT_INPUT, "attribute %s declares %zu bytes: %s: the file "
                         "holds %llu", name, size, reading->file->path,
                         (unsigned long long)reading->file_size);
    char *bytes = calloc(1, size + 1);
    int result = 0;
    if (bytes == NULL)
        result = out_of_memory();
    else if (H5Aread(attribute, type, bytes) < 0)
        result = unreadable_attribute(reading, name);
    else if ((*value = string_from_fixed(bytes, size)) == NULL)
        result = out_of_memory();
    free(bytes);
    return result;
}

/* Reads a scalar or one-element string attribute; 1 when it holds no string (left out). */
int string_attribute_read(struct reading *reading, hid_t attribute, const char *name,
                          char **value)
{
    hid_t type = H5Aget_type(attribute), space = H5Aget_space(attribute);
    int result = 1;
    if (type < 0 || space < 0)
        result = unreadable_attribute(reading, name);
    else if (H5Tget_class(type) == H5T_STRING && H5Sget_simple_extent_npoints(space) == 1)
        result = H5Tis_variable_str(type) > 0
                     ? variable_string_attribute_read(reading, attribute, type, space, name, value)
                     : fixed_string_attribute_read(reading, attribute, type, name, value);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    return result;
}

/* Reads the strings (fixed or variable length) of a one-dimensional attribute, or of a dataset
   when ATTRIBUTE is negative, into STRINGS (COUNT entries, at most LIMIT). 1 when malformed. */
int string_array_read(struct reading *reading, hid_t attribute, hid_t dataset, size_t limit,
                      char ***strings, size_t *count)
{
    hid_t space = attribute >= 0 ? H5Aget_space(attribute) : H5Dget_space(dataset);
    hid_t type = attribute >= 0 ? H5Aget_type(attribute) : H5Dget_type(dataset), memory = -1;
    hssize_t points = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    size_t size = type < 0 ? 0 : H5Tget_size(type);
    bool variable = type >= 0 && H5Tis_variable_str(type) > 0;
    size_t element = variable ? sizeof(char *) : size;
    char *buffer = NULL;
    int result = 0;
    uint64_t total = 0, longest;
    if (points < 0 || (size_t)points > limit || H5Tget_class(type) != H5T_STRING ||
        size > reading->file_size ||
        (variable && (vlen_lengths_read(attribute, dataset, (size_t)points, &total, &longest) < 0 ||
                      total > reading->file_size)))
        result = 1;
    else if ((memory = variable ? variable_string_type(type) : H5Tcopy(type)) < 0 ||
             (buffer = calloc((size_t)points + 1, element)) == NULL ||
             (*strings = calloc((size_t)points + 1, sizeof(char *))) == NULL)
        result = out_of_memory();
    else if ((attribute >= 0 ? H5Aread(attribute, memory, buffer)
                             : H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer)) < 0)
        result = 1;
    for (hssize_t index = 0; result == 0 && index < points; index++) {
        char *text = variable ? string_from_variable(((char **)buffer)[index])
                              : string_from_fixed(buffer + (size_t)index * size, size);
        if (text == NULL)
            result = out_of_memory();
        else
            (*strings)[(*count)++] = text;
    }
    /* The buffer was zeroed, so reclaiming after a failed read frees only what HDF5 allocated. */
    if (variable && buffer != NULL)
        H5Dvlen_reclaim(memory, space, H5P_DEFAULT, buffer);
    free(buffer);
    if (memory >= 0)
        H5Tclose(memory);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    return result;
}

/* A root attribute of one variable-length string read from the file itself when it can be
   (attribute_direct.h), its length capped before anything is read; 1 when it cannot be, for
   HDF5 to read. */
static int root_string_direct(struct reading *reading, hid_t attribute, const char *name,
                              char **value)
{
    hid_t type = H5Aget_type(attribute), space = H5Aget_space(attribute);
    bool variable = type >= 0 && space >= 0 && H5Tget_class(type) == H5T_STRING &&
                    H5Tis_variable_str(type) > 0 && H5Sget_simple_extent_npoints(space) == 1;
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    uint64_t length = 0;
    switch (variable ? attribute_direct_read(reading->file->handle, name,
                                             PROVENANCE_TEXT_MAX_BYTES, value, &length)
                     : ATTRIBUTE_DIRECT_UNSEEN) {
    case ATTRIBUTE_DIRECT_READ: return 0;
    case ATTRIBUTE_DIRECT_UNSEEN: return 1;
    case ATTRIBUTE_DIRECT_TOO_LONG: return too_long(reading, name, length);
    case ATTRIBUTE_DIRECT_MALFORMED: return unreadable_attribute(reading, name);
    case ATTRIBUTE_DIRECT_NO_MEMORY: break;
    }
    return out_of_memory();
}

static herr_t root_attribute_visit(hid_t location, const char *name, const H5A_info_t *info,
                                   void *data)
{
    (void)info;
    struct reading *reading = data;
    struct h5py_file *file = reading->file;
    if (strcmp(name, "split") == 0)
        return 0;
    hid_t attribute = H5Aopen(location, name, H5P_DEFAULT);
    if (attribute < 0)
        return unreadable_attribute(reading, name), -1;
    char *value = NULL;
    int result = root_string_direct(reading, attribute, name, &value);
    if (result == 1)
        result = string_attribute_read(reading, attribute, name, &value);
    H5Aclose(attribute);
    if (result == 1)
        return 0;
    if (result != 0)
        return -1;
    struct h5py_attribute *grown =
        realloc(file->attributes, (file->attribute_count + 1) * sizeof *grown);
    char *copy = strdup(name);
    if (grown == NULL || copy == NULL) {
        if (grown != NULL)
            file->attributes = grown;
        free(copy);
        free(value);
        return out_of_memory(), -1;
    }
    file->attributes = grown;
    file->attributes[file->attribute_count++] = (struct h5py_attribute){copy, value};
    return 0;
}

int root_attributes_read(struct reading *reading)
{
    error_clear();
    if (H5Aiterate2(reading->file->handle, H5_INDEX_NAME, H5_ITER_INC, NULL, root_attribute_visit,
                    reading) < 0)
        return error_code() != EXIT_OK
                   ? error_code()
                   : error_set(EXIT_CORRUPT_INPUT, "unreadable root attributes: %s",
                               reading->file->path);
    return 0;
}
