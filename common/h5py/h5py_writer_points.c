/* Rows of an h5py writer's sources written at scattered places, a batch per H5Dwrite of a point
   selection (a converter placing examples in a permuted order). */
#include "h5py_writer_state.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

static int find_source(const struct h5py_writer *writer, int index, struct writer_source **source)
{
    if (index < 0 || (size_t)index >= writer->source_count)
        return error_set(EXIT_OTHER, "cannot write: %s: no source number %d", writer->path, index);
    *source = &writer->sources[index];
    return EXIT_OK;
}

/* The file space of SOURCE with the points ROWS (COUNT of them) of its first axis selected, and
   a memory space of COUNT rows; -1 when HDF5 refuses. */
static int select_points(const struct writer_source *source, const uint64_t *rows, size_t count,
                         hid_t *file_space, hid_t *memory_space)
{
    *memory_space = -1;
    *file_space = H5Dget_space(source->dataset);
    int rank = source->rank;
    hsize_t memory_dimensions[H5PY_MAX_RANK];
    memory_dimensions[0] = count;
    size_t points = count;
    for (int axis = 1; axis < rank; axis++) {
        memory_dimensions[axis] = source->shape[axis];
        points *= (size_t)source->shape[axis];
    }
    hsize_t *coordinates = malloc(points * (size_t)rank * sizeof *coordinates);
    if (*file_space < 0 || coordinates == NULL) {
        free(coordinates);
        return -1;
    }
    /* Each row's elements in row-major order, so the memory buffer maps row by row. */
    size_t point = 0;
    for (size_t row = 0; row < count; row++) {
        size_t within = points / count;
        for (size_t element = 0; element < within; element++, point++) {
            hsize_t *at = coordinates + point * (size_t)rank;
            at[0] = rows[row];
            size_t rest = element;
            for (int axis = rank - 1; axis >= 1; axis--) {
                at[axis] = rest % source->shape[axis];
                rest /= source->shape[axis];
            }
        }
    }
    *memory_space = H5Screate_simple(rank, memory_dimensions, NULL);
    int result = *memory_space >= 0 &&
                         H5Sselect_elements(*file_space, H5S_SELECT_SET, points, coordinates) >= 0
                     ? 0
                     : -1;
    free(coordinates);
    return result;
}

static int check_rows(const struct h5py_writer *writer, const struct writer_source *source,
                      const uint64_t *rows, size_t count)
{
    for (size_t row = 0; row < count; row++)
        if (rows[row] >= source->shape[0])
            return error_set(EXIT_OTHER, "cannot write: %s: %s: example %llu outside 0..%llu",
                             writer->path, source->name, (unsigned long long)rows[row],
                             (unsigned long long)source->shape[0]);
    return EXIT_OK;
}

static int write_points(struct h5py_writer *writer, struct writer_source *source,
                        const uint64_t *rows, size_t count, const void *data, size_t bytes)
{
    int result = h5py_writer_flush(writer, source);
    if (result != EXIT_OK || count == 0)
        return result;
    hid_t file_space, memory_space;
    int failed = select_points(source, rows, count, &file_space, &memory_space);
    if (failed == 0)
        failed = H5Dwrite(source->dataset, source->memory_type, memory_space, file_space,
                          H5P_DEFAULT, data) < 0;
    if (file_space >= 0)
        H5Sclose(file_space);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    write_behind_note(&writer->behind, bytes);
    return failed ? hdf5_failure_report(writer->path, source->name) : EXIT_OK;
}

int h5py_writer_write_rows_at(struct h5py_writer *writer, int index, const uint64_t *rows,
                              size_t count, const void *data)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = find_source(writer, index, &source);
    if (result == EXIT_OK && source->variable_length)
        result = error_set(EXIT_OTHER, "cannot write: %s: %s is variable-length", writer->path,
                           source->name);
    if (result == EXIT_OK)
        result = check_rows(writer, source, rows, count);
    if (result != EXIT_OK)
        return result;
    return write_points(writer, source, rows, count, data, count * source->row_bytes);
}

int h5py_writer_write_sequences_at(struct h5py_writer *writer, int index,
                                   const uint64_t *examples, size_t count,
                                   const void *const *data, const size_t *lengths)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = find_source(writer, index, &source);
    if (result == EXIT_OK && (!source->variable_length || source->example_rank != 0))
        result = error_set(EXIT_OTHER, "cannot write: %s: %s is not variable-length without "
                           "shapes", writer->path, source->name);
    if (result == EXIT_OK)
        result = check_rows(writer, source, examples, count);
    if (result != EXIT_OK)
        return result;
    hvl_t *sequences = malloc((count > 0 ? count : 1) * sizeof *sequences);
    if (sequences == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    size_t bytes = 0;
    for (size_t example = 0; example < count; example++) {
        sequences[example].len = lengths[example];
        sequences[example].p = (void *)data[example];
        bytes += lengths[example] * source->element_bytes;
    }
    result = write_points(writer, source, examples, count, sequences, bytes);
    free(sequences);
    return result;
}
