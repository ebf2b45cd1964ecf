/* Reads the examples of one fixed-shape source of an H5PYDataset file: selections, ranges and
   index lists. */
#include "h5py_examples.h"

#include "common/base/error.h"
#include "h5py_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unreadable(const struct h5py_examples *examples, const char *what)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: %s", examples->source, what);
}

/* numpy's dtype string for the native MEMORY type. */
static void describe(struct h5py_examples *examples, H5T_class_t class, hid_t memory)
{
    size_t size = examples->element_size;
    char order = size == 1 ? '|' : (H5Tget_order(memory) == H5T_ORDER_BE ? '>' : '<');
    char kind = class == H5T_FLOAT ? 'f' : H5Tget_sign(memory) == H5T_SGN_NONE ? 'u' : 'i';
    if (examples->is_bool)
        snprintf(examples->descr, sizeof examples->descr, "|b1");
    else
        snprintf(examples->descr, sizeof examples->descr, "%c%c%zu", order, kind, size);
}

/* Fixed-length byte strings (numpy S<n>), read as stored: "|S<n>". */
static int string_type_choose(struct h5py_examples *examples, hid_t type)
{
    examples->is_string = true;
    examples->memory_type = H5Tcopy(type);
    if (examples->memory_type < 0)
        return unreadable(examples, "unsupported element type");
    examples->element_size = H5Tget_size(examples->memory_type);
    snprintf(examples->descr, sizeof examples->descr, "|S%zu", examples->element_size);
    return examples->element_size < 100000 ? EXIT_OK : unreadable(examples, "strings too long");
}

/* The in-memory type of the stored TYPE: native numbers, h5py's bool enum as it is. */
static int memory_type_choose(struct h5py_examples *examples, hid_t type, bool strings)
{
    H5T_class_t class = H5Tget_class(type);
    if (strings && class == H5T_STRING && H5Tis_variable_str(type) == 0)
        return string_type_choose(examples, type);
    if (class == H5T_VLEN)
        return error_set(EXIT_USAGE, "source %s is variable-length: its examples have no common "
                                     "shape", examples->source);
    examples->is_bool = class == H5T_ENUM && H5Tget_size(type) == 1;
    if (class != H5T_INTEGER && class != H5T_FLOAT && !examples->is_bool)
        return error_set(EXIT_USAGE, "source %s is not numeric", examples->source);
    examples->memory_type = examples->is_bool ? H5Tcopy(type)
                                              : H5Tget_native_type(type, H5T_DIR_ASCEND);
    if (examples->memory_type < 0)
        return unreadable(examples, "unsupported element type");
    examples->element_size = H5Tget_size(examples->memory_type);
    examples->is_float = class == H5T_FLOAT;
    describe(examples, class, examples->memory_type);
    return EXIT_OK;
}

static int shape_read(struct h5py_examples *examples)
{
    hid_t space = H5Dget_space(examples->dataset);
    int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    hsize_t dimensions[H5S_MAX_RANK];
    int result = EXIT_OK;
    if (rank < 1 || rank > H5PY_EXAMPLES_MAX_RANK ||
        H5Sget_simple_extent_dims(space, dimensions, NULL) < 0)
        result = unreadable(examples, "no example axis");
    examples->rank = result == EXIT_OK ? rank : 0;
    examples->example_bytes = examples->element_size;
    for (int axis = 0; axis < examples->rank; axis++) {
        examples->shape[axis] = dimensions[axis];
        if (axis > 0 && dimensions[axis] > 0 && examples->example_bytes > SIZE_MAX / dimensions[axis])
            result = unreadable(examples, "examples too large");
        else if (axis > 0)
            examples->example_bytes *= dimensions[axis];
    }
    if (space >= 0)
        H5Sclose(space);
    return result;
}

static int examples_open(struct h5py_examples *examples, const struct h5py_file *file,
                         const char *source, bool strings)
{
    *examples = (struct h5py_examples){.source = source, .dataset = -1, .memory_type = -1};
    if (H5Lexists(file->handle, source, H5P_DEFAULT) <= 0 ||
        (examples->dataset = H5Dopen2(file->handle, source, H5P_DEFAULT)) < 0)
        return error_set(EXIT_MISSING_INPUT, "no source %s: %s", source, file->path);
    hid_t type = H5Dget_type(examples->dataset);
    int result = type < 0 ? unreadable(examples, "no type")
                          : memory_type_choose(examples, type, strings);
    if (type >= 0)
        H5Tclose(type);
    if (result == EXIT_OK)
        result = shape_read(examples);
    if (result != EXIT_OK)
        h5py_examples_close(examples);
    return result;
}

int h5py_examples_open(struct h5py_examples *examples, const struct h5py_file *file,
                       const char *source)
{
    return examples_open(examples, file, source, false);
}

int h5py_examples_open_strings(struct h5py_examples *examples, const struct h5py_file *file,
                               const char *source)
{
    return examples_open(examples, file, source, true);
}

void h5py_examples_close(struct h5py_examples *examples)
{
    if (examples->memory_type >= 0)
        H5Tclose(examples->memory_type);
    if (examples->dataset >= 0)
        H5Dclose(examples->dataset);
    examples->memory_type = examples->dataset = -1;
}

int h5py_examples_read(const struct h5py_examples *examples, uint64_t first, uint64_t count,
                       void *buffer)
{
    if (count == 0)
        return EXIT_OK;
    if (first > examples->shape[0] || count > examples->shape[0] - first)
        return unreadable(examples, "examples past the end");
    hsize_t start[H5PY_EXAMPLES_MAX_RANK] = {first}, size[H5PY_EXAMPLES_MAX_RANK] = {count};
    for (int axis = 1; axis < examples->rank; axis++)
        size[axis] = examples->shape[axis];
    hid_t file_space = H5Dget_space(examples->dataset);
    hid_t memory_space = H5Screate_simple(examples->rank, size, NULL);
    herr_t status = file_space < 0 || memory_space < 0
                        ? -1
                        : H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, size, NULL);
    if (status >= 0)
        status = H5Dread(examples->dataset, examples->memory_type, memory_space, file_space,
                         H5P_DEFAULT, buffer);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return status < 0 ? unreadable(examples, "HDF5 read failed") : EXIT_OK;
}

static int placed_compare(const void *left, const void *right)
{
    const struct placed_index *a = left, *b = right;
    return a->index < b->index ? -1 : a->index > b->index;
}

struct placed_index *placed_indices_sorted(const uint64_t *indices, size_t count)
{
    struct placed_index *placed = malloc((count ? count : 1) * sizeof *placed);
    if (placed == NULL)
        return NULL;
    for (size_t position = 0; position < count; position++)
        placed[position] = (struct placed_index){indices[position], position};
    qsort(placed, count, sizeof *placed, placed_compare);
    return placed;
}

/* Reads the sorted PLACED in runs of consecutive indices into SORTED (one example per entry). */
static int read_runs(const struct h5py_examples *examples, const struct placed_index *placed,
                     size_t count, unsigned char *sorted)
{
    size_t first = 0;
    while (first < count) {
        size_t last = first;
        while (last + 1 < count && placed[last + 1].index == placed[last].index + 1)
            last++;
        int result = h5py_examples_read(examples, placed[first].index, last - first + 1,
                                        sorted + first * examples->example_bytes);
        if (result != EXIT_OK)
            return result;
        /* Repeats of the last index of the run are copies. */
        while (last + 1 < count && placed[last + 1].index == placed[last].index) {
            memcpy(sorted + (last + 1) * examples->example_bytes,
                   sorted + last * examples->example_bytes, examples->example_bytes);
            last++;
        }
        first = last + 1;
    }
    return EXIT_OK;
}

int h5py_examples_read_indices(const struct h5py_examples *examples, const uint64_t *indices,
                               size_t count, void *buffer)
{
    size_t bytes = examples->example_bytes;
    struct placed_index *placed = placed_indices_sorted(indices, count);
    unsigned char *sorted = count && bytes <= SIZE_MAX / count ? malloc(count * bytes) : NULL;
    if (placed == NULL || (count > 0 && sorted == NULL)) {
        free(placed);
        free(sorted);
        return error_set(EXIT_OTHER, "cannot read source %s: out of memory", examples->source);
    }
    int result = read_runs(examples, placed, count, sorted);
    for (size_t number = 0; result == EXIT_OK && number < count; number++)
        memcpy((unsigned char *)buffer + placed[number].position * bytes, sorted + number * bytes,
               bytes);
    free(placed);
    free(sorted);
    return result;
}

/* Reads the indices dataset NAME of a split row into SELECTION, each below LIMIT. */
static int indices_read(struct h5py_selection *selection, const struct h5py_file *file,
                        const char *name, uint64_t length, uint64_t limit)
{
    hid_t dataset = H5Dopen2(file->handle, name, H5P_DEFAULT);
    selection->indices = length > 0 && length <= limit ? malloc(length * sizeof(uint64_t)) : NULL;
    herr_t status = dataset < 0 || (length > 0 && selection->indices == NULL) ? -1 : 0;
    if (status >= 0 && length > 0)
        status = H5Dread(dataset, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                         selection->indices);
    if (dataset >= 0)
        H5Dclose(dataset);
    for (uint64_t number = 0; status >= 0 && number < length; number++)
        if (selection->indices[number] >= limit)
            status = -1;
    selection->count = length;
    if (status < 0)
        return error_set(EXIT_CORRUPT_INPUT, "unreadable or out-of-range split indices: %s: %s",
                         name, file->path);
    return EXIT_OK;
}

int h5py_selection_find(struct h5py_selection *selection, const struct h5py_file *file,
                        const char *split, const char *source)
{
    *selection = (struct h5py_selection){0};
    const struct h5py_file_source *facts = h5py_file_source(file, source);
    uint64_t limit = facts != NULL && facts->rank > 0 ? facts->shape[0] : 0;
    for (size_t index = 0; index < file->row_count; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        if (strcmp(row->split, split) != 0 || strcmp(row->source, source) != 0)
            continue;
        if (!row->available)
            return error_set(EXIT_USAGE, "split %s has no source %s: %s", split, source,
                             file->path);
        if (row->indices == INDICES_DATASET)
            return indices_read(selection, file, row->indices_name, row->indices_length, limit);
        if (row->indices == INDICES_DANGLING || row->start < 0 || row->stop < row->start ||
            (uint64_t)row->stop > limit)
            return error_set(EXIT_CORRUPT_INPUT, "split %s of source %s points outside it: %s",
                             split, source, file->path);
        selection->start = (uint64_t)row->start;
        selection->stop = (uint64_t)row->stop;
        selection->count = selection->stop - selection->start;
        return EXIT_OK;
    }
    char splits[1024];
    h5py_split_list(file, splits, sizeof splits);
    if (!h5py_file_has_split(file, split))
        return error_set(EXIT_USAGE, "no split %s: %s; %s", split, file->path, splits);
    return error_set(EXIT_USAGE, "no split %s with source %s: %s", split, source, file->path);
}

uint64_t h5py_selection_example(const struct h5py_selection *selection, uint64_t number)
{
    return selection->indices != NULL ? selection->indices[number] : selection->start + number;
}

void h5py_selection_free(struct h5py_selection *selection)
{
    free(selection->indices);
    *selection = (struct h5py_selection){0};
}
