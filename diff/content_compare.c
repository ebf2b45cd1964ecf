/* Compares one source's examples in two files block by block (see content_compare.h). */
#include "content_compare.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

bool content_pair_comparable(const struct h5py_file_source *left,
                             const struct h5py_file_source *right)
{
    if (!left->present || !right->present || left->dtype == NULL || right->dtype == NULL ||
        strcmp(left->dtype, right->dtype) != 0 || left->variable_length != right->variable_length)
        return false;
    if (left->variable_length)
        return true;
    if (left->rank != right->rank)
        return false;
    for (int axis = 1; axis < left->rank; axis++)
        if (left->shape[axis] != right->shape[axis])
            return false;
    return true;
}

int content_pair_open(struct content_pair *pair, const struct h5py_file *left,
                      const struct h5py_file *right, const struct h5py_file_source *source)
{
    *pair = (struct content_pair){.name = source->name, .variable = source->variable_length};
    const struct h5py_file *files[2] = {left, right};
    for (int side = 0; side < 2; side++) {
        pair->fixed[side] = (struct content_source){.dataset = -1, .memory_type = -1};
        pair->vlen[side] = (struct h5py_vlen_examples){.dataset = -1, .shapes = -1,
                                                        .memory_type = -1, .base_type = -1};
    }
    int result = EXIT_OK;
    for (int side = 0; side < 2 && result == EXIT_OK; side++) {
        if (pair->variable) {
            result = h5py_vlen_examples_open(&pair->vlen[side], files[side], source->name);
            pair->counts[side] = pair->vlen[side].count;
        } else {
            result = content_source_open(&pair->fixed[side], files[side], source->name);
            pair->counts[side] = pair->fixed[side].rank > 0 ? pair->fixed[side].shape[0] : 1;
        }
    }
    if (result != EXIT_OK)
        content_pair_close(pair);
    return result;
}

void content_pair_close(struct content_pair *pair)
{
    for (int side = 0; side < 2; side++) {
        content_source_close(&pair->fixed[side]);
        h5py_vlen_examples_close(&pair->vlen[side]);
    }
}

/* Reports the examples of a block that differ, by their offset from the compared range's start:
   each whole example of it, or the one example it is a part of (once, however many of its parts
   differ). */
static int block_compare(struct content_pair *pair, const struct content_walk *walk,
                         const hsize_t *start, const hsize_t *count, size_t bytes,
                         uint64_t *reported, content_difference_found found, void *context)
{
    const unsigned char *left = pair->fixed[0].buffer, *right = pair->fixed[1].buffer;
    uint64_t offset = pair->fixed[0].rank == 0 ? 0 : start[0] - walk->origin;
    if (pair->fixed[0].rank == 0 || walk->axis > 0) {
        if (offset == *reported || memcmp(left, right, bytes) == 0)
            return EXIT_OK;
        *reported = offset;
        return found(context, offset);
    }
    size_t size = pair->fixed[0].example_bytes;
    for (uint64_t number = 0; number < count[0]; number++)
        if (memcmp(left + number * size, right + number * size, size) != 0) {
            int result = found(context, offset + number);
            if (result != EXIT_OK)
                return result;
        }
    return EXIT_OK;
}

/* Two walks of the same box from each file's first example, block for block alike. */
static int fixed_compare(struct content_pair *pair, const uint64_t first[2], uint64_t count,
                         content_difference_found found, void *context)
{
    struct content_source *left = &pair->fixed[0];
    uint64_t shape[H5S_MAX_RANK];
    memcpy(shape, left->shape, sizeof shape);
    if (left->rank > 0)
        shape[0] = count;
    size_t budget = left->buffer_size < pair->fixed[1].buffer_size ? left->buffer_size
                                                                     : pair->fixed[1].buffer_size;
    struct content_walk walks[2];
    for (int side = 0; side < 2; side++)
        content_walk_begin(&walks[side], left->rank, shape, first[side], left->element_size,
                           budget);
    hsize_t starts[2][H5S_MAX_RANK], counts[2][H5S_MAX_RANK];
    uint64_t reported = UINT64_MAX;
    int result = EXIT_OK;
    while (result == EXIT_OK && content_walk_next(&walks[0], starts[0], counts[0]) &&
           content_walk_next(&walks[1], starts[1], counts[1])) {
        size_t left_bytes, right_bytes;
        result = content_source_read(left, starts[0], counts[0], &left_bytes);
        if (result == EXIT_OK)
            result = content_source_read(&pair->fixed[1], starts[1], counts[1], &right_bytes);
        if (result == EXIT_OK)
            result = block_compare(pair, &walks[0], starts[0], counts[0], left_bytes, &reported,
                                   found, context);
    }
    return result;
}

/* Whether example INDEXES[0] of the left file and INDEXES[1] of the right differ: their shapes,
   their element counts or their elements. */
static int vlen_example_compare(struct content_pair *pair, const uint64_t indexes[2],
                                bool *differs)
{
    uint64_t shapes[2][H5PY_VLEN_MAX_RANK] = {{0}};
    void *data[2] = {NULL, NULL};
    size_t counts[2] = {0, 0};
    int result = EXIT_OK;
    for (int side = 0; side < 2 && result == EXIT_OK; side++)
        result = content_vlen_example(&pair->vlen[side], indexes[side], shapes[side], &data[side],
                                      &counts[side]);
    if (result == EXIT_OK) {
        size_t rank = (size_t)pair->vlen[0].example_rank;
        *differs = pair->vlen[0].example_rank != pair->vlen[1].example_rank ||
                   memcmp(shapes[0], shapes[1], rank * sizeof shapes[0][0]) != 0 ||
                   counts[0] != counts[1] ||
                   memcmp(data[0], data[1], counts[0] * pair->vlen[0].element_size) != 0;
    }
    free(data[0]);
    free(data[1]);
    return result;
}

int content_pair_compare(struct content_pair *pair, const uint64_t first[2], uint64_t count,
                         content_difference_found found, void *context)
{
    if (count == 0)
        return EXIT_OK;
    for (int side = 0; side < 2; side++)
        if (first[side] > pair->counts[side] || count > pair->counts[side] - first[side])
            return error_set(EXIT_OTHER, "cannot compare source %s: examples past the end",
                             pair->name);
    if (!pair->variable)
        return fixed_compare(pair, first, count, found, context);
    int result = EXIT_OK;
    for (uint64_t offset = 0; result == EXIT_OK && offset < count; offset++) {
        bool differs = false;
        const uint64_t indexes[2] = {first[0] + offset, first[1] + offset};
        result = vlen_example_compare(pair, indexes, &differs);
        if (result == EXIT_OK && differs)
            result = found(context, offset);
    }
    return result;
}
