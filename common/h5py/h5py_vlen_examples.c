/* Reads variable-length sources one example at a time: shape from the `shapes` scale, elements
   from the vlen dataset (bytes straight from the file where h5py_vlen_direct can), each checked
   against a size bound before it is allocated. */
#include "h5py_vlen_examples.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

static int unreadable(const struct h5py_vlen_examples *examples, const char *what)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: %s", examples->source, what);
}

static int base_type_choose(struct h5py_vlen_examples *examples, hid_t type)
{
    if (H5Tget_class(type) != H5T_VLEN)
        return error_set(EXIT_USAGE, "source %s is not variable-length", examples->source);
    hid_t super = H5Tget_super(type);
    H5T_class_t class = super < 0 ? H5T_NO_CLASS : H5Tget_class(super);
    examples->is_bool = class == H5T_ENUM && H5Tget_size(super) == 1;
    if (class == H5T_INTEGER || class == H5T_FLOAT)
        examples->base_type = H5Tget_native_type(super, H5T_DIR_ASCEND);
    else if (examples->is_bool)
        examples->base_type = H5Tcopy(super);
    if (super >= 0)
        H5Tclose(super);
    if (examples->base_type < 0)
        return error_set(EXIT_USAGE, "source %s does not hold numbers", examples->source);
    examples->is_float = class == H5T_FLOAT;
    examples->element_size = H5Tget_size(examples->base_type);
    examples->memory_type = H5Tvlen_create(examples->base_type);
    return examples->memory_type < 0 ? unreadable(examples, "unsupported element type") : EXIT_OK;
}

static int dimensions_read(hid_t dataset, int expected_rank, hsize_t *dimensions)
{
    hid_t space = H5Dget_space(dataset);
    int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    int status = rank == expected_rank ? H5Sget_simple_extent_dims(space, dimensions, NULL) : -1;
    if (space >= 0)
        H5Sclose(space);
    return status < 0 ? -1 : 0;
}

static int shapes_open(struct h5py_vlen_examples *examples, const struct h5py_file *file)
{
    const struct h5py_file_source *facts = h5py_file_source(file, examples->source);
    examples->example_rank = 1;
    if (facts == NULL || facts->shapes_name == NULL)
        return EXIT_OK;
    hsize_t dimensions[2];
    examples->shapes = H5Dopen2(file->handle, facts->shapes_name, H5P_DEFAULT);
    if (examples->shapes < 0 || dimensions_read(examples->shapes, 2, dimensions) < 0 ||
        dimensions[0] != examples->count || dimensions[1] < 1 ||
        dimensions[1] > H5PY_VLEN_MAX_RANK)
        return unreadable(examples, "its shapes scale does not fit it");
    examples->example_rank = (int)dimensions[1];
    return EXIT_OK;
}

int h5py_vlen_examples_open(struct h5py_vlen_examples *examples, const struct h5py_file *file,
                            const char *source)
{
    *examples = (struct h5py_vlen_examples){.source = source, .dataset = -1, .shapes = -1,
                                            .memory_type = -1, .base_type = -1,
                                            .direct = {.descriptor = -1}};
    if (H5Lexists(file->handle, source, H5P_DEFAULT) <= 0 ||
        (examples->dataset = H5Dopen2(file->handle, source, H5P_DEFAULT)) < 0)
        return error_set(EXIT_MISSING_INPUT, "no source %s: %s", source, file->path);
    hid_t type = H5Dget_type(examples->dataset);
    int result = type < 0 ? unreadable(examples, "no type") : base_type_choose(examples, type);
    if (type >= 0)
        H5Tclose(type);
    hsize_t count = 0;
    if (result == EXIT_OK && dimensions_read(examples->dataset, 1, &count) < 0)
        result = unreadable(examples, "not one-dimensional");
    examples->count = count;
    if (result == EXIT_OK)
        result = shapes_open(examples, file);
    if (result == EXIT_OK && examples->element_size == 1 && !examples->is_float)
        h5py_vlen_direct_open(&examples->direct, examples->dataset, count);
    if (result != EXIT_OK)
        h5py_vlen_examples_close(examples);
    return result;
}

void h5py_vlen_examples_close(struct h5py_vlen_examples *examples)
{
    hid_t *types[] = {&examples->memory_type, &examples->base_type};
    for (size_t index = 0; index < 2; index++)
        if (*types[index] >= 0)
            H5Tclose(*types[index]);
    if (examples->shapes >= 0)
        H5Dclose(examples->shapes);
    if (examples->dataset >= 0)
        H5Dclose(examples->dataset);
    h5py_vlen_direct_close(&examples->direct);
    examples->memory_type = examples->base_type = examples->shapes = examples->dataset = -1;
}

/* Selects element INDEX (row INDEX when COLUMNS > 0) of DATASET's space. */
static hid_t select_row(hid_t dataset, uint64_t index, hsize_t columns)
{
    hid_t space = H5Dget_space(dataset);
    hsize_t start[2] = {index, 0}, size[2] = {1, columns};
    if (space >= 0 && H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, size, NULL) < 0) {
        H5Sclose(space);
        return -1;
    }
    return space;
}

int h5py_vlen_examples_shape(const struct h5py_vlen_examples *examples, uint64_t index,
                             uint64_t shape[H5PY_VLEN_MAX_RANK])
{
    if (index >= examples->count)
        return unreadable(examples, "example past the end");
    if (examples->shapes < 0) {
        size_t count = 0;
        void *data = NULL;
        int result = h5py_vlen_examples_read(examples, index, &data, &count);
        free(data);
        shape[0] = count;
        return result;
    }
    hsize_t columns = (hsize_t)examples->example_rank;
    hid_t file_space = select_row(examples->shapes, index, columns);
    hid_t memory_space = H5Screate_simple(1, &columns, NULL);
    herr_t status = file_space < 0 || memory_space < 0 ? -1
                    : H5Dread(examples->shapes, H5T_NATIVE_UINT64, memory_space, file_space,
                              H5P_DEFAULT, shape);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return status < 0 ? unreadable(examples, "unreadable shapes") : EXIT_OK;
}

int h5py_vlen_examples_read(const struct h5py_vlen_examples *examples, uint64_t index,
                            void **data, size_t *count)
{
    *data = NULL;
    *count = 0;
    if (index >= examples->count)
        return unreadable(examples, "example past the end");
    if (h5py_vlen_direct_read(&examples->direct, index, H5PY_VLEN_MAX_BYTES, data, count))
        return EXIT_OK;
    hsize_t one = 1, bytes = 0;
    hid_t file_space = select_row(examples->dataset, index, 0);
    hid_t memory_space = H5Screate_simple(1, &one, NULL);
    hvl_t element = {0};
    herr_t status = file_space < 0 || memory_space < 0 ? -1
                    : H5Dvlen_get_buf_size(examples->dataset, examples->memory_type, file_space,
                                           &bytes);
    if (status >= 0 && bytes > H5PY_VLEN_MAX_BYTES)
        status = -2;
    if (status >= 0)
        status = H5Dread(examples->dataset, examples->memory_type, memory_space, file_space,
                         H5P_DEFAULT, &element);
    if (status >= 0 && (*data = malloc(element.len ? element.len * examples->element_size : 1)))
        memcpy(*data, element.p, element.len * examples->element_size);
    if (status >= 0 && *data != NULL)
        *count = element.len;
    if (status >= 0)
        H5Dvlen_reclaim(examples->memory_type, memory_space, H5P_DEFAULT, &element);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    if (status == -2)
        return unreadable(examples, "an example larger than 64 MiB");
    if (status < 0 || *data == NULL)
        return unreadable(examples, "HDF5 read failed");
    return EXIT_OK;
}
