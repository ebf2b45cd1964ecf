/* Reads an HDF5 file as Fuel's H5PYDataset sees it, whichever program wrote it (fuel, h5py). */
#include "h5py_reader.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What every read is checked against: nothing stored in the file can be larger than the file. */
struct reading {
    struct h5py_file *file;
    uint64_t file_size;
};

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "out of memory");
}

/* The innermost HDF5 error description, e.g. "file signature not found". */
static herr_t remember_reason(unsigned position, const H5E_error2_t *entry, void *data)
{
    if (position == 0 && entry->desc != NULL)
        snprintf(data, 256, "%s", entry->desc);
    return 0;
}

static const char *hdf5_reason(char reason[256])
{
    snprintf(reason, 256, "unreadable");
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, remember_reason, reason);
    return reason;
}

/* A fixed-length string without its padding (nulls, or spaces for space-padded strings). */
static char *string_from_fixed(const char *bytes, size_t size)
{
    size_t length = strnlen(bytes, size);
    while (length > 0 && bytes[length - 1] == ' ')
        length--;
    return strndup(bytes, length);
}

static char *string_from_variable(const char *text)
{
    return strdup(text != NULL ? text : "");
}

/* The memory type for a variable-length string of the file type STORED, in its character set:
   HDF5 converts no string between ASCII and UTF-8 (h5py 3 writes a str as UTF-8). */
static hid_t variable_string_type(hid_t stored)
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

static int variable_string_attribute_read(struct reading *reading, hid_t attribute, hid_t type,
                                          hid_t space, const char *name, char **value)
{
    hid_t memory = variable_string_type(type);
    char *text = NULL;
    int result = memory < 0 ? out_of_memory() : 0;
    if (result == 0 && H5Aread(attribute, memory, &text) < 0)
        result = unreadable_attribute(reading, name);
    if (result == 0 && (*value = string_from_variable(text)) == NULL)
        result = out_of_memory();
    if (text != NULL)
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
static int string_attribute_read(struct reading *reading, hid_t attribute, const char *name,
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
    int result = string_attribute_read(reading, attribute, name, &value);
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

static int root_attributes_read(struct reading *reading)
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

/* --- The split attribute ------------------------------------------------------------------ */

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

static int split_attribute_read(struct reading *reading)
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

/* Adds NAME to LIST unless it is there already, keeping the order of first appearance. */
static int distinct_add(char ***list, size_t *count, const char *name)
{
    for (size_t index = 0; index < *count; index++)
        if (strcmp((*list)[index], name) == 0)
            return 0;
    char **grown = realloc(*list, (*count + 1) * sizeof *grown);
    if (grown == NULL)
        return out_of_memory();
    *list = grown;
    if ((grown[*count] = strdup(name)) == NULL)
        return out_of_memory();
    (*count)++;
    return 0;
}

/* --- Sources ------------------------------------------------------------------------------ */

static bool type_is_bool(hid_t type)
{
    hid_t base = H5Tget_super(type);
    bool result = false;
    if (base >= 0 && H5Tget_class(base) == H5T_INTEGER && H5Tget_size(base) == 1 &&
        H5Tget_nmembers(type) == 2) {
        int8_t false_value = -1, true_value = -1;
        result = H5Tenum_valueof(type, "FALSE", &false_value) >= 0 &&
                 H5Tenum_valueof(type, "TRUE", &true_value) >= 0 && false_value == 0 &&
                 true_value == 1;
    }
    if (base >= 0)
        H5Tclose(base);
    return result;
}

/* numpy's name for an HDF5 type; a variable-length sequence is named by its element type. */
static char *type_name(hid_t type)
{
    char name[64];
    size_t bits = H5Tget_size(type) * 8;
    switch (H5Tget_class(type)) {
    case H5T_INTEGER:
        snprintf(name, sizeof name, "%sint%zu", H5Tget_sign(type) == H5T_SGN_NONE ? "u" : "", bits);
        break;
    case H5T_FLOAT:
        snprintf(name, sizeof name, "float%zu", bits);
        break;
    case H5T_ENUM:
        snprintf(name, sizeof name, "%s", type_is_bool(type) ? "bool" : "enum");
        break;
    case H5T_STRING:
        if (H5Tis_variable_str(type) > 0)
            snprintf(name, sizeof name, "str");
        else
            snprintf(name, sizeof name, "S%zu", bits / 8);
        break;
    case H5T_VLEN: {
        hid_t base = H5Tget_super(type);
        char *base_name = base < 0 ? strdup("unknown") : type_name(base);
        if (base >= 0)
            H5Tclose(base);
        return base_name;
    }
    case H5T_COMPOUND:
        snprintf(name, sizeof name, "compound");
        break;
    case H5T_REFERENCE:
        snprintf(name, sizeof name, "reference");
        break;
    case H5T_ARRAY:
        snprintf(name, sizeof name, "array");
        break;
    default:
        snprintf(name, sizeof name, "opaque");
        break;
    }
    return strdup(name);
}

static int source_shape_read(struct reading *reading, hid_t dataset,
                             struct h5py_file_source *source)
{
    hid_t space = H5Dget_space(dataset);
    int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    hsize_t dimensions[H5S_MAX_RANK];
    int result = 0;
    if (rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space, dimensions, NULL) < 0)
        result = error_set(EXIT_CORRUPT_INPUT, "unreadable shape of source %s: %s", source->name,
                           reading->file->path);
    else if ((source->shape = calloc((size_t)rank + 1, sizeof *source->shape)) == NULL ||
             (source->axis_labels = calloc((size_t)rank + 1, sizeof *source->axis_labels)) == NULL)
        result = out_of_memory();
    else {
        source->rank = rank;
        for (int axis = 0; axis < rank; axis++)
            source->shape[axis] = dimensions[axis];
    }
    if (space >= 0)
        H5Sclose(space);
    return result;
}

/* Reads the strings (fixed or variable length) of a one-dimensional attribute, or of a dataset
   when ATTRIBUTE is negative, into STRINGS (COUNT entries, at most LIMIT). 1 when malformed. */
static int string_array_read(struct reading *reading, hid_t attribute, hid_t dataset, size_t limit,
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
    if (points < 0 || (size_t)points > limit || H5Tget_class(type) != H5T_STRING ||
        size > reading->file_size)
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

/* Dimension labels are the DIMENSION_LABELS attribute, one string per dimension. Read here
   rather than with H5DSget_label, which frees uninitialised pointers when that read fails.
   A count that differs from the rank is kept for h5py_check to report, not refused. */
static int axis_labels_read(struct reading *reading, hid_t dataset, struct h5py_file_source *source)
{
    char **labels = NULL;
    size_t count = 0;
    int result = 0;
    hid_t attribute = -1;
    if (H5Aexists(dataset, "DIMENSION_LABELS") > 0) {
        attribute = H5Aopen(dataset, "DIMENSION_LABELS", H5P_DEFAULT);
        result = attribute < 0 ? 1
                               : string_array_read(reading, attribute, -1, H5S_MAX_RANK,
                                                   &labels, &count);
        source->axis_label_count = count;
    }
    for (int axis = 0; axis < source->rank && result == 0; axis++) {
        source->axis_labels[axis] = strdup((size_t)axis < count ? labels[axis] : "");
        if (source->axis_labels[axis] == NULL)
            result = out_of_memory();
    }
    for (size_t index = 0; index < count; index++)
        free(labels[index]);
    free(labels);
    if (attribute >= 0)
        H5Aclose(attribute);
    if (result == 1)
        return error_set(EXIT_CORRUPT_INPUT, "malformed axis labels of source %s: %s",
                         source->name, reading->file->path);
    return result;
}

static int shape_labels_read(struct reading *reading, hid_t scale, struct h5py_file_source *source)
{
    int result = string_array_read(reading, -1, scale, H5S_MAX_RANK, &source->shape_labels,
                                   &source->shape_label_count);
    if (result == 1)
        return error_set(EXIT_CORRUPT_INPUT, "malformed shape_labels scale of source %s: %s",
                         source->name, reading->file->path);
    return result;
}

static int shapes_scale_read(struct reading *reading, hid_t scale, struct h5py_file_source *source)
{
    ssize_t length = H5Iget_name(scale, NULL, 0);
    hid_t space = H5Dget_space(scale);
    hsize_t dimensions[2] = {0, 0};
    int result = 0;
    if (length < 0 || (uint64_t)length > reading->file_size || space < 0 ||
        H5Sget_simple_extent_ndims(space) != 2 ||
        H5Sget_simple_extent_dims(space, dimensions, NULL) < 0)
        result = error_set(EXIT_CORRUPT_INPUT, "malformed shapes scale of source %s: %s",
                           source->name, reading->file->path);
    else if ((source->shapes_name = calloc(1, (size_t)length + 1)) == NULL)
        result = out_of_memory();
    else {
        H5Iget_name(scale, source->shapes_name, (size_t)length + 1);
        if (source->shapes_name[0] == '/')
            memmove(source->shapes_name, source->shapes_name + 1, (size_t)length);
        source->shapes_rows = dimensions[0];
        source->shapes_columns = dimensions[1];
        source->variable_length = true;
    }
    if (space >= 0)
        H5Sclose(space);
    return result;
}

/* Keeps a scale attached to dimension 0 when its NAME is `shapes` or `shape_labels`. */
static int scale_read(struct reading *reading, hid_t scale, struct h5py_file_source *source)
{
    if (H5Aexists(scale, "NAME") <= 0)
        return 0;
    hid_t attribute = H5Aopen(scale, "NAME", H5P_DEFAULT);
    char *name = NULL;
    int result = attribute < 0 ? 1 : string_attribute_read(reading, attribute, "NAME", &name);
    if (attribute >= 0)
        H5Aclose(attribute);
    if (result == 0 && strcmp(name, "shapes") == 0 && source->shapes_name == NULL)
        result = shapes_scale_read(reading, scale, source);
    else if (result == 0 && strcmp(name, "shape_labels") == 0 && source->shape_labels == NULL)
        result = shape_labels_read(reading, scale, source);
    free(name);
    return result == 1 ? 0 : result;
}

static int scales_read(struct reading *reading, hid_t dataset, const hvl_t *references,
                       struct h5py_file_source *source)
{
    int result = 0;
    for (size_t index = 0; index < references->len && result == 0; index++) {
        hobj_ref_t reference = ((const hobj_ref_t *)references->p)[index];
        hid_t scale = H5Rdereference2(dataset, H5P_DEFAULT, H5R_OBJECT, &reference);
        if (scale >= 0 && H5Iget_type(scale) == H5I_DATASET)
            result = scale_read(reading, scale, source);
        if (scale >= 0)
            H5Oclose(scale);
    }
    return result;
}

/* The scales of dimension 0, from DIMENSION_LIST (one list of object references per dimension).
   Read here rather than with H5DSiterate_scales, which double-frees on some damaged files. */
static int variable_length_read(struct reading *reading, hid_t dataset,
                                struct h5py_file_source *source)
{
    if (source->rank < 1 || H5Aexists(dataset, "DIMENSION_LIST") <= 0)
        return 0;
    hid_t attribute = H5Aopen(dataset, "DIMENSION_LIST", H5P_DEFAULT);
    hid_t space = attribute < 0 ? -1 : H5Aget_space(attribute);
    hid_t memory = H5Tvlen_create(H5T_STD_REF_OBJ);
    hvl_t *lists = calloc((size_t)source->rank, sizeof *lists);
    int result = 0;
    if (lists == NULL || memory < 0)
        result = out_of_memory();
    else if (space < 0 || H5Sget_simple_extent_npoints(space) != source->rank ||
             H5Aread(attribute, memory, lists) < 0)
        result = error_set(EXIT_CORRUPT_INPUT, "malformed dimension scales of source %s: %s",
                           source->name, reading->file->path);
    else
        result = scales_read(reading, dataset, &lists[0], source);
    /* The lists were zeroed, so reclaiming after a failed read frees only what HDF5 allocated. */
    if (lists != NULL && space >= 0 && memory >= 0)
        H5Dvlen_reclaim(memory, space, H5P_DEFAULT, lists);
    free(lists);
    if (memory >= 0)
        H5Tclose(memory);
    if (space >= 0)
        H5Sclose(space);
    if (attribute >= 0)
        H5Aclose(attribute);
    return result;
}

static int source_read(struct reading *reading, struct h5py_file_source *source)
{
    hid_t handle = reading->file->handle;
    if (H5Lexists(handle, source->name, H5P_DEFAULT) <= 0)
        return 0;
    hid_t dataset = H5Dopen2(handle, source->name, H5P_DEFAULT);
    if (dataset < 0)
        return 0;
    source->present = true;
    hid_t type = H5Dget_type(dataset);
    int result = 0;
    if (type < 0)
        result = error_set(EXIT_CORRUPT_INPUT, "unreadable type of source %s: %s", source->name,
                           reading->file->path);
    else if ((source->dtype = type_name(type)) == NULL)
        result = out_of_memory();
    if (result == 0)
        result = source_shape_read(reading, dataset, source);
    source->axis_label_count = (size_t)source->rank;
    if (result == 0)
        result = axis_labels_read(reading, dataset, source);
    if (result == 0)
        result = variable_length_read(reading, dataset, source);
    if (result == 0 && H5Tget_class(type) == H5T_VLEN)
        source->variable_length = true;
    if (type >= 0)
        H5Tclose(type);
    H5Dclose(dataset);
    return result;
}

static int sources_read(struct reading *reading)
{
    struct h5py_file *file = reading->file;
    char **names = NULL;
    size_t count = 0;
    int result = 0;
    for (size_t index = 0; index < file->row_count && result == 0; index++)
        result = distinct_add(&names, &count, file->rows[index].source);
    if (result == 0 && (file->sources = calloc(count + 1, sizeof *file->sources)) == NULL)
        result = out_of_memory();
    for (size_t index = 0; index < count; index++) {
        if (result == 0) {
            file->sources[index].name = names[index];
            file->source_count++;
            result = source_read(reading, &file->sources[index]);
        } else {
            free(names[index]);
        }
    }
    free(names);
    return result;
}

static int splits_list(struct h5py_file *file)
{
    for (size_t index = 0; index < file->row_count; index++) {
        int result = distinct_add(&file->splits, &file->split_count, file->rows[index].split);
        if (result != 0)
            return result;
    }
    return 0;
}

/* --- Opening and closing ------------------------------------------------------------------ */

static int file_check(const char *path, uint64_t *size)
{
    struct stat status;
    if (stat(path, &status) != 0)
        return error_set(errno == ENOENT || errno == ENOTDIR ? EXIT_MISSING_INPUT : EXIT_OTHER,
                         "cannot read: %s: %s", path, strerror(errno));
    if (!S_ISREG(status.st_mode))
        return error_set(EXIT_CORRUPT_INPUT, "not an HDF5 file: %s: not a regular file", path);
    *size = (uint64_t)status.st_size;
    return 0;
}

/* Locking is ignored where the filesystem has none (some NFS mounts) rather than failing.
   REASON gets HDF5's why on failure, taken before closing the list clears the error stack. */
static hid_t file_open(const char *path, char reason[256])
{
    hid_t access = H5Pcreate(H5P_FILE_ACCESS), file = -1;
    if (access >= 0 && H5Pset_file_locking(access, true, true) >= 0)
        file = H5Fopen(path, H5F_ACC_RDONLY, access);
    if (file < 0)
        hdf5_reason(reason);
    if (access >= 0)
        H5Pclose(access);
    return file;
}

static int file_read(struct reading *reading)
{
    struct h5py_file *file = reading->file;
    char reason[256];
    file->handle = file_open(file->path, reason);
    if (file->handle < 0) {
        bool signature = strstr(reason, "signature") != NULL;
        return error_set(EXIT_CORRUPT_INPUT, "%s: %s: %s",
                         signature ? "not an HDF5 file" : "damaged HDF5 file", file->path, reason);
    }
    int result = split_attribute_read(reading);
    if (result == 0)
        result = splits_list(file);
    if (result == 0)
        result = sources_read(reading);
    if (result == 0)
        result = root_attributes_read(reading);
    return result;
}

int h5py_reader_open(struct h5py_file **result, const char *path)
{
    *result = NULL;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct reading reading = {0};
    int code = file_check(path, &reading.file_size);
    if (code != 0)
        return code;
    struct h5py_file *file = calloc(1, sizeof *file);
    if (file == NULL || (file->path = strdup(path)) == NULL) {
        free(file);
        return out_of_memory();
    }
    file->handle = -1;
    reading.file = file;
    code = file_read(&reading);
    if (code != 0) {
        h5py_reader_close(file);
        return code;
    }
    *result = file;
    return 0;
}

static void source_free(struct h5py_file_source *source)
{
    free(source->name);
    free(source->dtype);
    for (int axis = 0; source->axis_labels != NULL && axis < source->rank; axis++)
        free(source->axis_labels[axis]);
    free(source->axis_labels);
    free(source->shape);
    free(source->shapes_name);
    for (size_t index = 0; index < source->shape_label_count; index++)
        free(source->shape_labels[index]);
    free(source->shape_labels);
}

void h5py_reader_close(struct h5py_file *file)
{
    if (file == NULL)
        return;
    if (file->handle >= 0)
        H5Fclose(file->handle);
    for (size_t index = 0; index < file->row_count; index++) {
        free(file->rows[index].split);
        free(file->rows[index].source);
        free(file->rows[index].comment);
        free(file->rows[index].indices_name);
    }
    free(file->rows);
    for (size_t index = 0; index < file->split_count; index++)
        free(file->splits[index]);
    free(file->splits);
    for (size_t index = 0; index < file->source_count; index++)
        source_free(&file->sources[index]);
    free(file->sources);
    for (size_t index = 0; index < file->attribute_count; index++) {
        free(file->attributes[index].name);
        free(file->attributes[index].value);
    }
    free(file->attributes);
    free(file->path);
    free(file);
}

const char *h5py_file_attribute(const struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->attribute_count; index++)
        if (strcmp(file->attributes[index].name, name) == 0)
            return file->attributes[index].value;
    return NULL;
}

const struct h5py_file_source *h5py_file_source(const struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->source_count; index++)
        if (strcmp(file->sources[index].name, name) == 0)
            return &file->sources[index];
    return NULL;
}

uint64_t h5py_split_row_count(const struct h5py_split_row *row)
{
    if (!row->available || row->indices == INDICES_DANGLING)
        return 0;
    if (row->indices == INDICES_DATASET)
        return row->indices_length;
    /* In unsigned arithmetic: a hostile file's int64 bounds may differ by more than INT64_MAX. */
    return row->stop > row->start ? (uint64_t)row->stop - (uint64_t)row->start : 0;
}
