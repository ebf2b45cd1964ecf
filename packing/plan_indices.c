/* The indices of non-contiguous splits (Fuel's chapter 4.6): a 1-D integer .npy per split,
   checked against the examples of every source in the split, written as SPLIT_indices (int64)
   for the split rows to reference. */
#include "plan.h"

#include "common/base/error.h"
#include "element_convert.h"
#include "npy_file.h"

#include <inttypes.h>
#include <stdlib.h>

enum { INDICES_PER_BLOCK = 65536 };

/* Calls EACH on the indices of SPLIT, block by block, as int64. */
static int indices_stream(const struct pack_plan *plan, size_t split,
                          int (*each)(void *context, uint64_t first, const int64_t *values,
                                      size_t count),
                          void *context)
{
    const struct pack_split *declared = &plan->spec->splits[split];
    struct npy_file file;
    int result = npy_file_open(&file, declared->indices);
    bool integer = file.array.kind == 'i' || file.array.kind == 'u';
    if (result == EXIT_OK && (file.array.rank != 1 || !integer))
        result = error_set(EXIT_CORRUPT_INPUT, "indices of split %s: %s: a 1-D array of "
                           "integers is needed, found %d axes of %s", declared->name,
                           declared->indices, file.array.rank, element_type_dtype(file.type));
    void *raw = result == EXIT_OK ? malloc(INDICES_PER_BLOCK * sizeof(int64_t)) : NULL;
    int64_t *values = result == EXIT_OK ? malloc(INDICES_PER_BLOCK * sizeof *values) : NULL;
    if (result == EXIT_OK && (raw == NULL || values == NULL))
        result = error_set(EXIT_OTHER, "out of memory");
    struct element_conversion conversion = {file.type, ELEMENT_INT64, false, 1.0};
    for (uint64_t first = 0; result == EXIT_OK && first < file.array.shape[0];
         first += INDICES_PER_BLOCK) {
        uint64_t left = file.array.shape[0] - first;
        size_t count = left < INDICES_PER_BLOCK ? (size_t)left : INDICES_PER_BLOCK, bad;
        char text[64];
        result = npy_file_read(&file, first, count, raw);
        if (result == EXIT_OK && !element_convert(&conversion, raw, values, count, &bad, text,
                                                  sizeof text))
            result = error_set(EXIT_CORRUPT_INPUT, "indices out of range: %s: %s at position "
                               "%" PRIu64, declared->indices, text, first + bad);
        if (result == EXIT_OK)
            result = each(context, first, values, count);
    }
    free(raw);
    free(values);
    npy_file_close(&file);
    return result;
}

struct range_check {
    const struct pack_plan *plan;
    size_t split;
    const struct planned_source *smallest; /* the source of fewest examples in the split */
};

static int range_check(void *context, uint64_t first, const int64_t *values, size_t count)
{
    const struct range_check *check = context;
    const struct pack_split *split = &check->plan->spec->splits[check->split];
    for (size_t index = 0; index < count; index++)
        if (values[index] < 0 || (uint64_t)values[index] >= check->smallest->examples)
            return error_set(EXIT_CORRUPT_INPUT, "indices out of range: %s: %" PRId64 " at "
                             "position %" PRIu64 ", but source %s has %" PRIu64 " examples",
                             split->indices, values[index], first + index,
                             check->smallest->spec->name, check->smallest->examples);
    return EXIT_OK;
}

static int split_indices_check(struct pack_plan *plan, size_t split)
{
    struct range_check check = {plan, split, NULL};
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        const struct planned_source *planned = &plan->sources[index];
        if (planned->spec->available[split] &&
            (check.smallest == NULL || planned->examples < check.smallest->examples))
            check.smallest = planned;
    }
    const struct pack_split *declared = &plan->spec->splits[split];
    plan->indices[split].name = input_relative_name(plan->spec, declared->indices);
    if (plan->indices[split].name == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct npy_file file;
    int result = npy_file_open(&file, declared->indices);
    if (result == EXIT_OK)
        plan->indices[split].count = file.array.shape[0];
    npy_file_close(&file);
    if (result != EXIT_OK || check.smallest == NULL)
        return result;
    return indices_stream(plan, split, range_check, &check);
}

int plan_check_indices(struct pack_plan *plan)
{
    for (size_t split = 0; split < plan->spec->split_count; split++) {
        if (plan->spec->splits[split].kind != SPLIT_INDICES)
            continue;
        int result = split_indices_check(plan, split);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

struct indices_writing {
    struct h5py_writer *writer;
    int index;
};

static int indices_write(void *context, uint64_t first, const int64_t *values, size_t count)
{
    const struct indices_writing *writing = context;
    return h5py_writer_write(writing->writer, writing->index, first, count, values);
}

int plan_write_indices(struct pack_plan *plan, struct h5py_writer *writer, size_t split,
                       int *index)
{
    char name[300];
    plan_auxiliary_name(plan->spec->splits[split].name, "indices", name, sizeof name);
    struct h5py_source_declaration declaration = {
        .name = name, .type = ELEMENT_INT64, .rank = 1, .shape = {plan->indices[split].count},
        .auxiliary = true};
    int result = h5py_writer_add_source(writer, &declaration, index);
    struct indices_writing writing = {writer, *index};
    return result == EXIT_OK ? indices_stream(plan, split, indices_write, &writing) : result;
}
