/* Copies a cut plan's examples into a writer: fixed-shape sources in blocks, variable-length ones
   example by example with their shapes. */
#include "h5py_cut.h"

#include "common/base/disk_space.h"
#include "common/base/staging.h"
#include "common/base/error.h"
#include "h5py_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum element_type element_type_of(const char *dtype)
{
    enum element_type type = ELEMENT_UINT8;
    element_type_from_dtype(dtype, &type);
    return type;
}

static int source_declare(struct h5py_writer *writer, const struct cut_source *cut, int *index)
{
    struct h5py_source_declaration source = {
        .name = cut->name, .type = element_type_of(cut->dtype), .rank = cut->rank,
        .variable_length = cut->variable_length, .example_rank = cut->example_rank,
        .string_length = cut->string_length,
        .int32_shapes = cut->int32_shapes, .shape_labels_dataset = cut->shape_labels_dataset,
    };
    if (cut->string_length > 0)
        source.type = ELEMENT_STRING;
    for (int axis = 0; axis < cut->rank; axis++) {
        source.shape[axis] = cut->shape[axis];
        source.axis_labels[axis] = cut->axis_labels[axis];
    }
    for (int axis = 0; axis < cut->example_rank; axis++)
        source.shape_labels[axis] = cut->shape_labels[axis];
    return h5py_writer_add_source(writer, &source, index);
}

static int fixed_copy(struct cut_plan *plan, size_t source, struct h5py_writer *writer, int index)
{
    const struct cut_source *cut = cut_plan_source(plan, source);
    uint64_t block = cut->example_bytes > 0 ? CUT_BLOCK_BYTES / cut->example_bytes : 1;
    block = block > CUT_BLOCK_EXAMPLES ? CUT_BLOCK_EXAMPLES : block > 0 ? block : 1;
    block = block < cut->shape[0] ? block : cut->shape[0];
    void *buffer = malloc(block * cut->example_bytes + 1);
    if (buffer == NULL)
        return error_set(EXIT_OTHER, "cannot cut: out of memory");
    int result = EXIT_OK;
    for (uint64_t first = 0; result == EXIT_OK && first < cut->shape[0]; first += block) {
        uint64_t count = cut->shape[0] - first < block ? cut->shape[0] - first : block;
        result = cut_plan_read(plan, source, first, count, buffer);
        if (result == EXIT_OK)
            result = h5py_writer_write(writer, index, first, count, buffer);
    }
    free(buffer);
    return result;
}

static int variable_copy(struct cut_plan *plan, size_t source, struct h5py_writer *writer,
                         int index)
{
    const struct cut_source *cut = cut_plan_source(plan, source);
    void *data = NULL;
    size_t capacity = 0;
    uint16_t shape[CUT_MAX_RANK];
    size_t length = 0;
    int result = EXIT_OK;
    for (uint64_t example = 0; result == EXIT_OK && example < cut->shape[0]; example++) {
        result = cut_plan_read_variable(plan, source, example, &data, &capacity, shape, &length);
        const void *bytes = data;
        if (result == EXIT_OK && cut->example_rank == 0)
            result = h5py_writer_write_sequences_at(writer, index, &example, 1, &bytes, &length);
        else if (result == EXIT_OK)
            result = h5py_writer_write_variable(writer, index, example, data, shape);
    }
    free(data);
    return result;
}

static int splits_declare(struct cut_plan *plan, struct h5py_writer *writer)
{
    int result = EXIT_OK;
    for (size_t split = 0; split < cut_plan_split_count(plan); split++)
        for (size_t source = 0; result == EXIT_OK && source < cut_plan_source_count(plan);
             source++) {
            uint64_t start, stop;
            if (cut_plan_range(plan, source, split, &start, &stop))
                result = h5py_writer_add_split(writer, cut_plan_split_name(plan, split),
                                               cut_plan_source(plan, source)->name, start, stop);
        }
    return result;
}

/* Whether the kept examples of the fixed-shape sources, the least the cut file holds, fit in the
   directory of the writer's file. */
static int space_check(const struct cut_plan *plan, const struct h5py_writer *writer)
{
    uint64_t bytes = 0;
    for (size_t source = 0; source < cut_plan_source_count(plan); source++) {
        const struct cut_source *cut = cut_plan_source(plan, source);
        if (!cut->variable_length)
            bytes = disk_space_sum(bytes, disk_space_product(cut->shape[0], cut->example_bytes));
    }
    char directory[4096], named[4096];
    snprintf(directory, sizeof directory, "%s", h5py_writer_path(writer));
    char *slash = strrchr(directory, '/');
    if (slash == NULL)
        snprintf(directory, sizeof directory, ".");
    else
        *slash = '\0';
    /* The file is written in a staging directory: the message names the directory it is for. */
    snprintf(named, sizeof named, "%s", directory);
    slash = strrchr(named, '/');
    if (staging_is_name(slash != NULL ? slash + 1 : named))
        snprintf(named, sizeof named, "%.*s", slash != NULL ? (int)(slash - named) : 1,
                 slash != NULL ? directory : ".");
    return disk_space_check(directory, named, bytes, bytes);
}

int h5py_cut_write(struct cut_plan *plan, struct h5py_writer *writer)
{
    int result = space_check(plan, writer);
    for (size_t source = 0; result == EXIT_OK && source < cut_plan_source_count(plan); source++) {
        int index;
        const struct cut_source *cut = cut_plan_source(plan, source);
        result = source_declare(writer, cut, &index);
        if (result == EXIT_OK && cut->variable_length)
            result = variable_copy(plan, source, writer, index);
        else if (result == EXIT_OK)
            result = fixed_copy(plan, source, writer, index);
    }
    return result == EXIT_OK ? splits_declare(plan, writer) : result;
}
