/* The sources of an H5PYDataset file: each dataset's type, shape, axis labels and scales. */
#include "h5py_reading.h"

#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The dataset's name without the leading slash, into *NAME (NULL when it cannot be read). */
static int scale_name_read(struct reading *reading, hid_t scale, char **name)
{
    ssize_t length = H5Iget_name(scale, NULL, 0);
    *name = NULL;
    if (length < 0 || (uint64_t)length > reading->file_size)
        return 1;
    if ((*name = calloc(1, (size_t)length + 1)) == NULL)
        return out_of_memory();
    H5Iget_name(scale, *name, (size_t)length + 1);
    if ((*name)[0] == '/')
        memmove(*name, *name + 1, (size_t)length);
    return 0;
}

static int shape_labels_read(struct reading *reading, hid_t scale, struct h5py_file_source *source)
{
    int result = string_array_read(reading, -1, scale, H5S_MAX_RANK, &source->shape_labels,
                                   &source->shape_label_count);
    if (result == 0)
        result = scale_name_read(reading, scale, &source->shape_labels_name);
    if (result == 1)
        return error_set(EXIT_CORRUPT_INPUT, "malformed shape_labels scale of source %s: %s",
                         source->name, reading->file->path);
    return result;
}

static int shapes_scale_read(struct reading *reading, hid_t scale, struct h5py_file_source *source)
{
    hid_t space = H5Dget_space(scale), type = H5Dget_type(scale);
    hsize_t dimensions[2] = {0, 0};
    int result = 0;
    if (space < 0 || type < 0 || H5Sget_simple_extent_ndims(space) != 2 ||
        H5Sget_simple_extent_dims(space, dimensions, NULL) < 0 ||
        (result = scale_name_read(reading, scale, &source->shapes_name)) == 1)
        result = error_set(EXIT_CORRUPT_INPUT, "malformed shapes scale of source %s: %s",
                           source->name, reading->file->path);
    else if (result == 0) {
        source->shapes_rows = dimensions[0];
        source->shapes_columns = dimensions[1];
        source->shapes_int32 = H5Tget_class(type) == H5T_INTEGER && H5Tget_size(type) == 4 &&
                               H5Tget_sign(type) == H5T_SGN_2;
        source->variable_length = true;
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
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

int sources_read(struct reading *reading)
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
