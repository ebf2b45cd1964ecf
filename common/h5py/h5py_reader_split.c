/* The `split` attribute of an H5PYDataset file: its compound rows and their indices references. */
#include "h5py_reading.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

enum split_field { FIELD_SPLIT, FIELD_SOURCE, FIELD_START, FIELD_STOP, FIELD_INDICES,
                   FIELD_AVAILABLE, FIELD_COMMENT, FIELD_COUNT };

static const char *const field_names[FIELD_COUNT] = {
    "split", "source", "start", "stop", "indices", "available", "comment"};

/* The in-memory compound the split array is converted into: each field's type and offset. */
struct split_layout {
    hid_t types[FIELD_COUNT];
    size_t offsets[FIELD_COUNT];
    bool variable[FIELD_COUNT]; /* variable-length string fields */
    hid_t memory;
    size_t row_size;
};

static void split_layout_close(struct split_layout *layout)
{
    for (int field = 0; field < FIELD_COUNT; field++)
        if (layout->types[field] >= 0)
            H5Tclose(layout->types[field]);
    if (layout->memory >= 0)
        H5Tclose(layout->memory);
}

static int malformed(const struct reading *reading, const char *why, const char *field)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed split attribute: %s: %s%s",
                     reading->file->path, why, field);
}

/* The memory type for one field of the file's compound, or a malformed-split error. */
static int split_field_type(const struct reading *reading, hid_t member, int field,
                            struct split_layout *layout)
{
    H5T_class_t class = H5Tget_class(member);
    const char *name = field_names[field];
    switch (field) {
    case FIELD_SPLIT:
    case FIELD_SOURCE:
    case FIELD_COMMENT:
        if (class != H5T_STRING)
            return malformed(reading, "not a string field: ", name);
        layout->variable[field] = H5Tis_variable_str(member) > 0;
        if (!layout->variable[field] && H5Tget_size(member) > reading->file_size)
            return malformed(reading, "string longer than the file: ", name);
        layout->types[field] =
            layout->variable[field] ? variable_string_type(member) : H5Tcopy(member);
        break;
    case FIELD_START:
    case FIELD_STOP:
        if (class != H5T_INTEGER)
            return malformed(reading, "not an integer field: ", name);
        layout->types[field] = H5Tcopy(H5T_NATIVE_INT64);
        break;
    case FIELD_INDICES:
        if (class != H5T_REFERENCE || H5Tequal(member, H5T_STD_REF_OBJ) <= 0)
            return malformed(reading, "not an object reference field: ", name);
        layout->types[field] = H5Tcopy(H5T_STD_REF_OBJ);
        break;
    default: /* FIELD_AVAILABLE: numpy bool (an enum over int8), or any integer */
        if (class != H5T_ENUM && class != H5T_INTEGER)
            return malformed(reading, "not a boolean field: ", name);
        layout->types[field] = H5Tget_native_type(member, H5T_DIR_DEFAULT);
        if (layout->types[field] >= 0 && H5Tget_size(layout->types[field]) > sizeof(int64_t))
            return malformed(reading, "boolean wider than 8 bytes: ", name);
        break;
    }
    return layout->types[field] < 0 ? out_of_memory() : 0;
}

/* Every member inside the compound's declared size: HDF5 trusts the offsets it reads. */
static bool compound_members_fit(hid_t type)
{
    size_t size = H5Tget_size(type);
    int members = H5Tget_nmembers(type);
    bool fit = members > 0;
    for (int index = 0; index < members && fit; index++) {
        hid_t member = H5Tget_member_type(type, (unsigned)index);
        size_t offset = H5Tget_member_offset(type, (unsigned)index);
        fit = member >= 0 && offset <= size && H5Tget_size(member) <= size - offset;
        if (member >= 0)
            H5Tclose(member);
    }
    return fit;
}

static int split_layout_build(const struct reading *reading, hid_t file_type,
                              struct split_layout *layout)
{
    if (H5Tget_class(file_type) != H5T_COMPOUND)
        return malformed(reading, "not a compound array", "");
    if (!compound_members_fit(file_type))
        return malformed(reading, "fields outside the row size", "");
    for (int field = 0; field < FIELD_COUNT; field++) {
        int index = H5Tget_member_index(file_type, field_names[field]);
        if (index < 0)
            return malformed(reading, "no field ", field_names[field]);
        hid_t member = H5Tget_member_type(file_type, (unsigned)index);
        int result = member < 0 ? malformed(reading, "unreadable field ", field_names[field])
                                : split_field_type(reading, member, field, layout);
        if (member >= 0)
            H5Tclose(member);
        if (result != 0)
            return result;
        layout->offsets[field] = layout->row_size;
        layout->row_size += H5Tget_size(layout->types[field]);
    }
    layout->memory = H5Tcreate(H5T_COMPOUND, layout->row_size);
    if (layout->memory < 0)
        return out_of_memory();
    for (int field = 0; field < FIELD_COUNT; field++)
        if (H5Tinsert(layout->memory, field_names[field], layout->offsets[field],
                      layout->types[field]) < 0)
            return out_of_memory();
    return 0;
}

static char *split_row_string(const struct split_layout *layout, const char *row, int field)
{
    const char *bytes = row + layout->offsets[field];
    if (layout->variable[field]) {
        const char *text;
        memcpy(&text, bytes, sizeof text);
        return string_from_variable(text);
    }
    return string_from_fixed(bytes, H5Tget_size(layout->types[field]));
}

static bool split_row_available(const struct split_layout *layout, const char *row)
{
    const unsigned char *bytes = (const unsigned char *)row + layout->offsets[FIELD_AVAILABLE];
    for (size_t index = 0; index < H5Tget_size(layout->types[FIELD_AVAILABLE]); index++)
        if (bytes[index] != 0)
            return true;
    return false;
}

/* Resolves a non-null `indices` reference to the dataset's name, rank, length and type. */
static int indices_resolve(struct reading *reading, struct h5py_split_row *row,
                           hobj_ref_t *reference)
{
    hid_t object = H5Rdereference2(reading->file->handle, H5P_DEFAULT, H5R_OBJECT, reference);
    if (object < 0 || H5Iget_type(object) != H5I_DATASET) {
        row->indices = INDICES_DANGLING;
        if (object >= 0)
            H5Oclose(object);
        return 0;
    }
    int result = 0;
    ssize_t length = H5Iget_name(object, NULL, 0);
    hid_t space = H5Dget_space(object), type = H5Dget_type(object);
    if (length < 0 || (uint64_t)length > reading->file_size || space < 0 || type < 0) {
        row->indices = INDICES_DANGLING;
    } else if ((row->indices_name = calloc(1, (size_t)length + 1)) == NULL) {
        result = out_of_memory();
    } else {
        H5Iget_name(object, row->indices_name, (size_t)length + 1);
        if (row->indices_name[0] == '/')
            memmove(row->indices_name, row->indices_name + 1, (size_t)length);
        row->indices = INDICES_DATASET;
        row->indices_rank = H5Sget_simple_extent_ndims(space);
        hssize_t points = H5Sget_simple_extent_npoints(space);
        row->indices_length = points > 0 ? (uint64_t)points : 0;
        row->indices_integer = H5Tget_class(type) == H5T_INTEGER;
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    H5Dclose(object);
    return result;
}

static int split_row_convert(struct reading *reading, const struct split_layout *layout,
                             const char *bytes, struct h5py_split_row *row)
{
    row->split = split_row_string(layout, bytes, FIELD_SPLIT);
    row->source = split_row_string(layout, bytes, FIELD_SOURCE);
    row->comment = split_row_string(layout, bytes, FIELD_COMMENT);
    if (row->split == NULL || row->source == NULL || row->comment == NULL)
        return out_of_memory();
    memcpy(&row->start, bytes + layout->offsets[FIELD_START], sizeof row->start);
    memcpy(&row->stop, bytes + layout->offsets[FIELD_STOP], sizeof row->stop);
    row->available = split_row_available(layout, bytes);
    hobj_ref_t reference;
    memcpy(&reference, bytes + layout->offsets[FIELD_INDICES], sizeof reference);
    row->indices = INDICES_NONE;
    return reference == 0 ? 0 : indices_resolve(reading, row, &reference);
}

static int split_rows_read(struct reading *reading, hid_t attribute, hid_t space,
                           const struct split_layout *layout, size_t row_count)
{
    struct h5py_file *file = reading->file;
    char *buffer = calloc(row_count, layout->row_size);
    file->rows = calloc(row_count, sizeof *file->rows);
    int result = 0;
    if (buffer == NULL || file->rows == NULL)
        result = out_of_memory();
    else if (H5Aread(attribute, layout->memory, buffer) < 0) {
        char reason[256];
        result = malformed(reading, "unreadable: ", hdf5_reason(reason));
    } else {
        file->row_count = row_count;
        for (size_t index = 0; index < row_count && result == 0; index++)
            result = split_row_convert(reading, layout, buffer + index * layout->row_size,
                                       &file->rows[index]);
        H5Dvlen_reclaim(layout->memory, space, H5P_DEFAULT, buffer);
    }
    free(buffer);
    return result;
}

/* Checks the split array's shape and declared size against the file before reading it. */
static int split_array_read(struct reading *reading, hid_t attribute)
{
    hid_t space = H5Aget_space(attribute), file_type = H5Aget_type(attribute);
    struct split_layout layout = {.memory = -1};
    for (int field = 0; field < FIELD_COUNT; field++)
        layout.types[field] = -1;
    int result;
    hssize_t rows = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    size_t file_row_size = file_type < 0 ? 0 : H5Tget_size(file_type);
    if (space < 0 || file_type < 0 || file_row_size == 0)
        result = malformed(reading, "unreadable type or shape", "");
    else if (H5Sget_simple_extent_ndims(space) != 1)
        result = malformed(reading, "not a one-dimensional array", "");
    else if (rows <= 0)
        result = malformed(reading, "no rows", "");
    else if ((uint64_t)rows > reading->file_size / file_row_size)
        result = malformed(reading, "more rows declared than the file can hold", "");
    else if ((result = split_layout_build(reading, file_type, &layout)) == 0)
        result = split_rows_read(reading, attribute, space, &layout, (size_t)rows);
    split_layout_close(&layout);
    if (space >= 0)
        H5Sclose(space);
    if (file_type >= 0)
        H5Tclose(file_type);
    return result;
}

int split_attribute_read(struct reading *reading)
{
    struct h5py_file *file = reading->file;
    if (H5Aexists(file->handle, "split") <= 0)
        return error_set(EXIT_CORRUPT_INPUT,
                         "not an H5PYDataset file: %s: no split attribute in the root group",
                         file->path);
    hid_t attribute = H5Aopen(file->handle, "split", H5P_DEFAULT);
    if (attribute < 0)
        return malformed(reading, "cannot open the attribute", "");
    int result = split_array_read(reading, attribute);
    H5Aclose(attribute);
    return result;
}
