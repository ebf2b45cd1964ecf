/* Reads a split's examples of a fixed-shape or variable-length source. */
#include "example_source.h"

#include "common/base/error.h"
#include "common/h5py/h5py_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int no_such_source(const struct h5py_file *file, const char *name)
{
    char sources[1024];
    h5py_source_list(file, sources, sizeof sources);
    return error_set(EXIT_USAGE, "no source %s: %s; %s", name, file->path, sources);
}

void example_source_init(struct example_source *source)
{
    *source = (struct example_source){.fixed = {.dataset = -1, .memory_type = -1},
                                      .vlen = {.dataset = -1, .shapes = -1, .memory_type = -1,
                                               .base_type = -1}};
}

static int source_open(struct example_source *source, const struct h5py_file *file,
                       const char *name, bool strings)
{
    example_source_init(source);
    source->name = name;
    source->facts = h5py_file_source(file, name);
    if (source->facts == NULL || !source->facts->present)
        return no_such_source(file, name);
    source->variable = source->facts->variable_length;
    if (source->variable) {
        int result = h5py_vlen_examples_open(&source->vlen, file, name);
        source->type = (struct numeric_type){source->vlen.is_bool ? 'b'
                                             : source->vlen.is_float ? 'f' : 'i',
                                             source->vlen.element_size};
        if (result == EXIT_OK && !source->vlen.is_bool && !source->vlen.is_float) {
            hid_t sign_type = source->vlen.base_type;
            source->type.kind = H5Tget_sign(sign_type) == H5T_SGN_NONE ? 'u' : 'i';
        }
        source->encoded = result == EXIT_OK && source->facts->shapes_name == NULL &&
                          source->type.kind == 'u' && source->type.size == 1;
        return result;
    }
    int result = strings ? h5py_examples_open_strings(&source->fixed, file, name)
                         : h5py_examples_open(&source->fixed, file, name);
    if (result == EXIT_OK && source->fixed.is_string) {
        source->type = (struct numeric_type){'S', source->fixed.element_size};
        source->example_elements = source->fixed.example_bytes / source->fixed.element_size;
    } else if (result == EXIT_OK) {
        source->type = numeric_type_from_descr(source->fixed.descr);
        source->example_elements = source->fixed.example_bytes / source->fixed.element_size;
    }
    return result;
}

int example_source_open(struct example_source *source, const struct h5py_file *file,
                        const char *name)
{
    return source_open(source, file, name, false);
}

int example_source_open_strings(struct example_source *source, const struct h5py_file *file,
                                const char *name)
{
    return source_open(source, file, name, true);
}

const char *example_source_default(const struct h5py_file *file)
{
    const struct h5py_file_source *features = h5py_file_source(file, "features");
    const struct h5py_file_source *encoded = h5py_file_source(file, "encoded_images");
    if ((features == NULL || !features->present) && encoded != NULL && encoded->present)
        return "encoded_images";
    return "features";
}

int example_source_select(struct example_source *source, const struct h5py_file *file,
                          const char *split)
{
    h5py_selection_free(&source->selection);
    return h5py_selection_find(&source->selection, file, split, source->name);
}

int example_source_read(const struct example_source *source, uint64_t first, uint64_t count,
                        void *buffer)
{
    const struct h5py_selection *selection = &source->selection;
    if (selection->indices != NULL)
        return h5py_examples_read_indices(&source->fixed, selection->indices + first, count,
                                          buffer);
    return h5py_examples_read(&source->fixed, selection->start + first, count, buffer);
}

static int fixed_read_one(const struct example_source *source, uint64_t number, void **data,
                          uint64_t *shape, int *rank)
{
    *rank = source->fixed.rank - 1;
    for (int axis = 1; axis < source->fixed.rank; axis++)
        shape[axis - 1] = source->fixed.shape[axis];
    if ((*data = malloc(source->fixed.example_bytes ? source->fixed.example_bytes : 1)) == NULL)
        return error_set(EXIT_OTHER, "cannot read source %s: out of memory", source->name);
    return example_source_read(source, number, 1, *data);
}

int example_source_read_one(const struct example_source *source, uint64_t number, void **data,
                            uint64_t shape[H5PY_VLEN_MAX_RANK], int *rank)
{
    *data = NULL;
    if (!source->variable)
        return fixed_read_one(source, number, data, shape, rank);
    uint64_t index = h5py_selection_example(&source->selection, number);
    size_t count = 0;
    *rank = source->vlen.example_rank;
    int result = h5py_vlen_examples_shape(&source->vlen, index, shape);
    if (result == EXIT_OK)
        result = h5py_vlen_examples_read(&source->vlen, index, data, &count);
    uint64_t product = 1;
    for (int axis = 0; result == EXIT_OK && axis < *rank; axis++)
        product *= shape[axis];
    if (result == EXIT_OK && product != count)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: example %llu holds %zu "
                           "elements, its shape says %llu", source->name,
                           (unsigned long long)index, count, (unsigned long long)product);
    if (result != EXIT_OK) {
        free(*data);
        *data = NULL;
    }
    return result;
}

const char *example_source_axis_label(const struct example_source *source, int axis)
{
    const struct h5py_file_source *facts = source->facts;
    if (source->variable)
        return (size_t)axis < facts->shape_label_count ? facts->shape_labels[axis] : "";
    return (size_t)axis + 1 < facts->axis_label_count ? facts->axis_labels[axis + 1] : "";
}

void example_source_close(struct example_source *source)
{
    h5py_selection_free(&source->selection);
    h5py_examples_close(&source->fixed);
    h5py_vlen_examples_close(&source->vlen);
}
