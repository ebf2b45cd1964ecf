/* The rows of an h5py writer's sources, gathered into blocks and written with one H5Dwrite each. */
#include "h5py_writer_state.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

static int select_rows(hid_t dataset, uint64_t first, uint64_t count, hid_t *file_space,
                       hid_t *memory_space)
{
    *file_space = H5Dget_space(dataset);
    int rank = H5Sget_simple_extent_ndims(*file_space);
    hsize_t dimensions[H5PY_MAX_RANK];
    hsize_t start[H5PY_MAX_RANK] = {0};
    if (rank < 1 || H5Sget_simple_extent_dims(*file_space, dimensions, NULL) < 0)
        return -1;
    start[0] = first;
    dimensions[0] = count;
    *memory_space = H5Screate_simple(rank, dimensions, NULL);
    if (*memory_space < 0 ||
        H5Sselect_hyperslab(*file_space, H5S_SELECT_SET, start, NULL, dimensions, NULL) < 0)
        return -1;
    return 0;
}

static int write_rows(hid_t dataset, hid_t memory_type, hid_t transfer, uint64_t first,
                      uint64_t count, const void *data)
{
    if (count == 0)
        return 0;
    hid_t file_space = -1, memory_space = -1;
    int result = select_rows(dataset, first, count, &file_space, &memory_space);
    if (result == 0)
        result = H5Dwrite(dataset, memory_type, memory_space, file_space, transfer, data) < 0
                     ? -1
                     : 0;
    H5Sclose(file_space);
    H5Sclose(memory_space);
    return result;
}

static int flush_variable(const struct h5py_writer *writer, struct writer_source *source)
{
    struct pending_block *block = &source->block;
    hvl_t *sequences = malloc(block->count * sizeof *sequences);
    if (sequences == NULL)
        return -1;
    size_t offset = 0;
    size_t bytes_per_element = source->element_bytes;
    for (uint64_t row = 0; row < block->count; row++) {
        sequences[row].len = block->element_counts[row];
        sequences[row].p = block->data + offset;
        offset += block->element_counts[row] * bytes_per_element;
    }
    int result = write_rows(source->dataset, source->memory_type, writer->transfer, block->first,
                            block->count, sequences);
    free(sequences);
    if (result == 0)
        result = write_rows(source->shapes_dataset, H5T_NATIVE_UINT32, H5P_DEFAULT, block->first,
                            block->count, block->shapes);
    return result;
}

int h5py_writer_flush(struct h5py_writer *writer, struct writer_source *source)
{
    struct pending_block *block = &source->block;
    if (block->count == 0)
        return EXIT_OK;
    int result = source->variable_length
                     ? flush_variable(writer, source)
                     : write_rows(source->dataset, source->memory_type, H5P_DEFAULT, block->first,
                                  block->count, block->data);
    write_behind_note(&writer->behind, block->used);
    block->count = 0;
    block->used = 0;
    if (result < 0)
        return hdf5_failure_report(writer->path, source->name);
    return EXIT_OK;
}

static int find_source(const struct h5py_writer *writer, int index, struct writer_source **source)
{
    if (index < 0 || (size_t)index >= writer->source_count)
        return error_set(EXIT_OTHER, "cannot write: %s: no source number %d", writer->path, index);
    *source = &writer->sources[index];
    return EXIT_OK;
}

static int reserve(struct pending_block *block, size_t bytes)
{
    if (block->capacity - block->used >= bytes)
        return 0;
    size_t capacity = block->capacity == 0 ? BLOCK_BYTES : block->capacity;
    while (capacity - block->used < bytes) {
        if (capacity > SIZE_MAX / 2)
            return -1;
        capacity *= 2;
    }
    unsigned char *grown = realloc(block->data, capacity);
    if (grown == NULL)
        return -1;
    block->data = grown;
    block->capacity = capacity;
    return 0;
}

int h5py_writer_write(struct h5py_writer *writer, int index, uint64_t first, uint64_t count,
                      const void *data)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = find_source(writer, index, &source);
    if (result != EXIT_OK)
        return result;
    if (source->variable_length)
        return error_set(EXIT_OTHER, "cannot write: %s: %s is variable-length", writer->path,
                         source->name);
    if (first > source->shape[0] || count > source->shape[0] - first)
        return error_set(EXIT_OTHER,
                         "cannot write: %s: %s: rows %llu..%llu outside 0..%llu", writer->path,
                         source->name, (unsigned long long)first,
                         (unsigned long long)(first + count), (unsigned long long)source->shape[0]);
    if (source->row_bytes != 0 && count > SIZE_MAX / source->row_bytes)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: too many rows", writer->path,
                         source->name);
    size_t bytes = (size_t)count * source->row_bytes;
    struct pending_block *block = &source->block;
    bool follows = block->count > 0 && first == block->first + block->count;
    if (!follows || block->used + bytes > BLOCK_BYTES) {
        result = h5py_writer_flush(writer, source);
        if (result != EXIT_OK)
            return result;
    }
    if (bytes >= BLOCK_BYTES / 2) {
        if (write_rows(source->dataset, source->memory_type, H5P_DEFAULT, first, count, data) < 0)
            return hdf5_failure_report(writer->path, source->name);
        write_behind_note(&writer->behind, bytes);
        return EXIT_OK;
    }
    if (reserve(block, bytes) < 0)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    if (block->count == 0)
        block->first = first;
    if (bytes > 0)
        memcpy(block->data + block->used, data, bytes);
    block->used += bytes;
    block->count += count;
    return EXIT_OK;
}

static int reserve_examples(struct writer_source *source)
{
    struct pending_block *block = &source->block;
    if (block->element_counts != NULL)
        return 0;
    block->element_counts = malloc(BLOCK_EXAMPLES * sizeof *block->element_counts);
    block->shapes = malloc(BLOCK_EXAMPLES * (size_t)source->example_rank * sizeof *block->shapes);
    return block->element_counts == NULL || block->shapes == NULL ? -1 : 0;
}

/* The elements of an example of SHAPE, each side within what SOURCE's shapes scale holds;
   false when a side does not fit or the count overflows. */
static bool example_elements(const struct writer_source *source, const uint32_t *shape,
                             size_t *elements)
{
    uint32_t largest = source->int32_shapes ? INT32_MAX : UINT16_MAX;
    *elements = 1;
    for (int axis = 0; axis < source->example_rank; axis++) {
        if (shape[axis] > largest ||
            (shape[axis] != 0 && *elements > SIZE_MAX / source->element_bytes / shape[axis]))
            return false;
        *elements *= shape[axis];
    }
    return true;
}

static int variable_source(struct h5py_writer *writer, int index, uint64_t example,
                           struct writer_source **source)
{
    int result = find_source(writer, index, source);
    if (result != EXIT_OK)
        return result;
    if (!(*source)->variable_length || (*source)->example_rank == 0)
        return error_set(EXIT_OTHER, "cannot write: %s: %s is not variable-length with shapes",
                         writer->path, (*source)->name);
    if (example >= (*source)->shape[0])
        return error_set(EXIT_OTHER, "cannot write: %s: %s: example %llu outside 0..%llu",
                         writer->path, (*source)->name, (unsigned long long)example,
                         (unsigned long long)(*source)->shape[0]);
    return EXIT_OK;
}

/* An example this large is written at once from the caller's memory rather than copied into the
   block first (a Dogs vs Cats photo: half a megabyte). */
enum { DIRECT_BYTES = 256 << 10 };

static int write_variable_direct(struct h5py_writer *writer, struct writer_source *source,
                                 uint64_t example, const void *data, size_t elements,
                                 const uint32_t *shape)
{
    int result = h5py_writer_flush(writer, source);
    if (result != EXIT_OK)
        return result;
    hvl_t sequence = {.len = elements, .p = (void *)data};
    if (write_rows(source->dataset, source->memory_type, writer->transfer_one, example, 1,
                   &sequence) < 0 ||
        write_rows(source->shapes_dataset, H5T_NATIVE_UINT32, H5P_DEFAULT, example, 1, shape) < 0)
        return hdf5_failure_report(writer->path, source->name);
    write_behind_note(&writer->behind, elements * source->element_bytes);
    return EXIT_OK;
}

int h5py_writer_write_variable_wide(struct h5py_writer *writer, int index, uint64_t example,
                                    const void *data, const uint32_t *shape)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = variable_source(writer, index, example, &source);
    if (result != EXIT_OK)
        return result;
    size_t elements;
    if (!example_elements(source, shape, &elements))
        return error_set(EXIT_OTHER, "cannot write: %s: %s: example %llu: shape too large",
                         writer->path, source->name, (unsigned long long)example);
    size_t bytes = elements * source->element_bytes;
    if (bytes >= DIRECT_BYTES)
        return write_variable_direct(writer, source, example, data, elements, shape);
    struct pending_block *block = &source->block;
    bool follows = block->count > 0 && example == block->first + block->count;
    if (!follows || block->count == BLOCK_EXAMPLES || block->used + bytes > BLOCK_BYTES) {
        result = h5py_writer_flush(writer, source);
        if (result != EXIT_OK)
            return result;
    }
    if (reserve_examples(source) < 0 || reserve(block, bytes) < 0)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    if (block->count == 0)
        block->first = example;
    if (bytes > 0)
        memcpy(block->data + block->used, data, bytes);
    memcpy(block->shapes + block->count * (size_t)source->example_rank, shape,
           (size_t)source->example_rank * sizeof *shape);
    block->element_counts[block->count] = elements;
    block->used += bytes;
    block->count++;
    return EXIT_OK;
}

int h5py_writer_write_variable(struct h5py_writer *writer, int index, uint64_t example,
                               const void *data, const uint16_t *shape)
{
    uint32_t wide[H5PY_MAX_RANK] = {0};
    struct writer_source *source = NULL;
    int result = variable_source(writer, index, example, &source);
    if (result != EXIT_OK)
        return result;
    for (int axis = 0; axis < source->example_rank; axis++)
        wide[axis] = shape[axis];
    return h5py_writer_write_variable_wide(writer, index, example, data, wide);
}
