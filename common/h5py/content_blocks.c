/* Reads a source's elements in canonical form in blocks of bounded size (see content_blocks.h). */
#include "content_blocks.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

/* No element of a digested source may be larger than this (a hostile fixed-string size). */
#define ELEMENT_MAX_BYTES ((size_t)64 << 20)

hid_t content_canonical_type(hid_t stored)
{
    H5T_class_t class = H5Tget_class(stored);
    if (class == H5T_STRING)
        return H5Tis_variable_str(stored) > 0 ? -1 : H5Tcopy(stored);
    if (class != H5T_INTEGER && class != H5T_FLOAT && class != H5T_BITFIELD && class != H5T_ENUM)
        return -1;
    hid_t type = H5Tcopy(stored);
    if (type >= 0 && H5Tget_size(type) > 1 && H5Tset_order(type, H5T_ORDER_LE) < 0) {
        H5Tclose(type);
        return -1;
    }
    return type;
}

void content_walk_begin(struct content_walk *walk, int rank, const uint64_t *shape,
                        uint64_t origin, size_t element_size, size_t budget)
{
    *walk = (struct content_walk){.rank = rank, .origin = origin, .axis = rank - 1, .step = 1};
    uint64_t tail = element_size;
    for (int axis = rank - 1; axis >= 0; axis--) {
        walk->shape[axis] = shape[axis];
        walk->done = walk->done || shape[axis] == 0;
        if (tail <= budget) {
            walk->axis = axis;
            walk->step = budget / (tail ? tail : 1);
        }
        tail = shape[axis] != 0 && tail > UINT64_MAX / shape[axis] ? UINT64_MAX
                                                                   : tail * shape[axis];
    }
    if (rank > 0 && walk->step > walk->shape[walk->axis])
        walk->step = walk->shape[walk->axis];
    if (walk->step == 0)
        walk->step = 1;
}

bool content_walk_next(struct content_walk *walk, hsize_t *start, hsize_t *count)
{
    if (walk->done)
        return false;
    if (walk->rank == 0) {
        walk->done = true;
        return true;
    }
    for (int axis = 0; axis < walk->rank; axis++) {
        bool leading = axis < walk->axis, running = axis == walk->axis;
        start[axis] = leading || running ? walk->position[axis] : 0;
        count[axis] = leading ? 1 : walk->shape[axis];
        if (running && walk->step < walk->shape[axis] - walk->position[axis])
            count[axis] = walk->step;
        else if (running)
            count[axis] = walk->shape[axis] - walk->position[axis];
    }
    start[0] += walk->origin;
    walk->position[walk->axis] += count[walk->axis];
    for (int axis = walk->axis; axis >= 0 && walk->position[axis] == walk->shape[axis]; axis--) {
        if (axis == 0) {
            walk->done = true;
            break;
        }
        walk->position[axis] = 0;
        walk->position[axis - 1]++;
    }
    return true;
}

static int unreadable(const struct content_source *source, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: %s", source->name, why);
}

static int shape_read(struct content_source *source)
{
    hid_t space = H5Dget_space(source->dataset);
    int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    hsize_t dimensions[H5S_MAX_RANK];
    int result = EXIT_OK;
    if (rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space, dimensions, NULL) < 0)
        result = unreadable(source, "unreadable shape");
    source->rank = result == EXIT_OK ? rank : 0;
    source->example_bytes = source->element_size;
    for (int axis = 0; axis < source->rank; axis++) {
        source->shape[axis] = dimensions[axis];
        if (axis == 0)
            continue;
        if (dimensions[axis] != 0 && source->example_bytes > SIZE_MAX / dimensions[axis])
            source->example_bytes = SIZE_MAX;
        else if (source->example_bytes != SIZE_MAX)
            source->example_bytes *= dimensions[axis];
    }
    if (space >= 0)
        H5Sclose(space);
    return result;
}

static int memory_type_choose(struct content_source *source, hid_t memory_type)
{
    hid_t stored = memory_type >= 0 ? -1 : H5Dget_type(source->dataset);
    if (memory_type >= 0)
        source->memory_type = H5Tcopy(memory_type);
    else
        source->memory_type = stored < 0 ? -1 : content_canonical_type(stored);
    if (stored >= 0)
        H5Tclose(stored);
    if (source->memory_type < 0)
        return error_set(EXIT_USAGE, "cannot read source %s: its element type has no canonical "
                                     "form (only numbers, enums and fixed-length strings have)",
                         source->name);
    source->element_size = H5Tget_size(source->memory_type);
    if (source->element_size == 0 || source->element_size > ELEMENT_MAX_BYTES)
        return unreadable(source, "elements larger than 64 MiB");
    return EXIT_OK;
}

int content_source_open(struct content_source *source, const struct h5py_file *file,
                        const char *name)
{
    return content_source_open_as(source, file, name, -1);
}

int content_source_open_as(struct content_source *source, const struct h5py_file *file,
                           const char *name, hid_t memory_type)
{
    *source = (struct content_source){.name = name, .dataset = -1, .memory_type = -1};
    if (H5Lexists(file->handle, name, H5P_DEFAULT) <= 0 ||
        (source->dataset = H5Dopen2(file->handle, name, H5P_DEFAULT)) < 0)
        return error_set(EXIT_MISSING_INPUT, "no source %s: %s", name, file->path);
    int result = memory_type_choose(source, memory_type);
    if (result == EXIT_OK)
        result = shape_read(source);
    source->buffer_size = source->element_size > CONTENT_BLOCK_BYTES ? source->element_size
                                                                     : CONTENT_BLOCK_BYTES;
    if (result == EXIT_OK && (source->buffer = malloc(source->buffer_size)) == NULL)
        result = error_set(EXIT_OTHER, "cannot read source %s: out of memory", name);
    if (result != EXIT_OK)
        content_source_close(source);
    return result;
}

void content_source_close(struct content_source *source)
{
    if (source->memory_type >= 0)
        H5Tclose(source->memory_type);
    if (source->dataset >= 0)
        H5Dclose(source->dataset);
    free(source->buffer);
    source->buffer = NULL;
    source->memory_type = source->dataset = -1;
}

int content_source_read(struct content_source *source, const hsize_t *start, const hsize_t *count,
                        size_t *bytes)
{
    *bytes = source->element_size;
    for (int axis = 0; axis < source->rank; axis++)
        *bytes *= count[axis];
    if (*bytes > source->buffer_size)
        return unreadable(source, "a block larger than the buffer");
    hid_t file_space = H5Dget_space(source->dataset);
    hid_t memory_space = source->rank == 0 ? H5Screate(H5S_SCALAR)
                                           : H5Screate_simple(source->rank, count, NULL);
    herr_t status = file_space < 0 || memory_space < 0 ? -1 : 0;
    if (status >= 0 && source->rank > 0)
        status = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
    if (status >= 0 && *bytes > 0)
        status = H5Dread(source->dataset, source->memory_type, memory_space, file_space,
                         H5P_DEFAULT, source->buffer);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return status < 0 ? unreadable(source, "HDF5 read failed") : EXIT_OK;
}

int content_elements_canonical(hid_t base_type, void *data, size_t count)
{
    hid_t canonical = content_canonical_type(base_type);
    herr_t status = canonical < 0 ? -1 : 0;
    if (status >= 0 && count > 0 && H5Tequal(base_type, canonical) <= 0)
        status = H5Tconvert(base_type, canonical, count, data, NULL, H5P_DEFAULT);
    if (canonical >= 0)
        H5Tclose(canonical);
    return status < 0 ? error_set(EXIT_OTHER, "cannot convert elements to little-endian") : EXIT_OK;
}

int content_vlen_example(const struct h5py_vlen_examples *examples, uint64_t index,
                         uint64_t shape[H5PY_VLEN_MAX_RANK], void **data, size_t *count)
{
    *data = NULL;
    *count = 0;
    int result = h5py_vlen_examples_shape(examples, index, shape);
    if (result == EXIT_OK)
        result = h5py_vlen_examples_read(examples, index, data, count);
    if (result == EXIT_OK)
        result = content_elements_canonical(examples->base_type, *data, *count);
    if (result != EXIT_OK) {
        free(*data);
        *data = NULL;
    }
    return result;
}
