/* Plans and reads a fixture cut from an H5PYDataset file in bounded memory: the examples kept are
   positions within each split's selection, the same for every source, read in blocks. */
#include "h5py_cut_plan.h"

#include "common/base/error.h"
#include "common/base/random.h"
#include "h5py_examples.h"
#include "h5py_names.h"
#include "h5py_input.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

struct source_state {
    struct h5py_examples examples; /* fixed-shape sources */
    bool examples_open;
    hid_t dataset;                 /* variable-length sources: the data and its shapes scale */
    hid_t shapes;
    hid_t memory_type;
    struct h5py_selection selections[CUT_MAX_SPLITS];
    bool available[CUT_MAX_SPLITS];
    uint64_t start[CUT_MAX_SPLITS];
};

struct cut_plan {
    struct h5py_file *file;
    size_t source_count;
    struct cut_source *sources;
    struct source_state *states;
    size_t split_count;
    uint64_t kept[CUT_MAX_SPLITS];
    uint64_t *positions[CUT_MAX_SPLITS]; /* NULL: the first kept[split] positions */
    uint64_t *indices;                   /* a block's parent indices */
    size_t indices_capacity;
};

static const char *const writable_types[] = {"uint8", "uint16", "int16", "int64", "float32",
                                             "float64", "bool"};

/* numpy's S<n> (fixed-length byte strings, ILSVRC's filenames): n, or 0 for another dtype. */
static size_t string_length(const char *dtype)
{
    if (dtype == NULL || dtype[0] != 'S' || dtype[1] < '1' || dtype[1] > '9')
        return 0;
    char *end;
    unsigned long length = strtoul(dtype + 1, &end, 10);
    return *end == '\0' && length <= 65535 ? (size_t)length : 0;
}

static int source_describe(struct cut_plan *plan, size_t index)
{
    const struct h5py_file_source *parent = &plan->file->sources[index];
    struct cut_source *source = &plan->sources[index];
    bool writable = false;
    for (size_t type = 0; type < sizeof writable_types / sizeof *writable_types; type++)
        writable = writable || (parent->dtype && strcmp(parent->dtype, writable_types[type]) == 0);
    source->string_length = parent->variable_length ? 0 : string_length(parent->dtype);
    writable = writable || source->string_length > 0;
    if (!parent->present || !writable || parent->rank < 1 || parent->rank > CUT_MAX_RANK ||
        parent->shape_label_count > CUT_MAX_RANK)
        return error_set(EXIT_CORRUPT_INPUT, "cannot cut: %s: source %s (%s) %s", plan->file->path,
                         parent->name, parent->dtype ? parent->dtype : "?",
                         !parent->present ? "is missing" : "has a type or shape fuel cannot write");
    source->name = parent->name;
    source->dtype = parent->dtype;
    source->rank = parent->rank;
    source->variable_length = parent->variable_length;
    for (int axis = 0; axis < parent->rank; axis++) {
        source->shape[axis] = parent->shape[axis];
        source->axis_labels[axis] = (size_t)axis < parent->axis_label_count
                                        ? parent->axis_labels[axis] : "";
    }
    source->example_rank = (int)parent->shape_label_count;
    if (parent->variable_length && parent->shapes_columns != parent->shape_label_count)
        source->example_rank = (int)parent->shapes_columns;
    for (size_t axis = 0; axis < parent->shape_label_count; axis++)
        source->shape_labels[axis] = parent->shape_labels[axis];
    source->int32_shapes = parent->shapes_int32;
    source->shape_labels_dataset = parent->shape_labels_name;
    return EXIT_OK;
}

static int source_open(struct cut_plan *plan, size_t index)
{
    struct cut_source *source = &plan->sources[index];
    struct source_state *state = &plan->states[index];
    state->dataset = state->shapes = state->memory_type = -1;
    if (!source->variable_length) {
        int result = h5py_examples_open_strings(&state->examples, plan->file, source->name);
        state->examples_open = result == EXIT_OK;
        source->example_bytes = state->examples.example_bytes;
        return result;
    }
    const struct h5py_file_source *parent = &plan->file->sources[index];
    state->dataset = H5Dopen2(plan->file->handle, source->name, H5P_DEFAULT);
    state->shapes = parent->shapes_name != NULL
                        ? H5Dopen2(plan->file->handle, parent->shapes_name, H5P_DEFAULT) : -1;
    hid_t type = state->dataset >= 0 ? H5Dget_type(state->dataset) : -1;
    hid_t base = type >= 0 ? H5Tget_super(type) : -1;
    hid_t native = base >= 0 ? H5Tget_native_type(base, H5T_DIR_ASCEND) : -1;
    state->memory_type = native >= 0 ? H5Tvlen_create(native) : -1;
    hid_t types[3] = {native, base, type};
    for (size_t handle = 0; handle < 3; handle++)
        if (types[handle] >= 0)
            H5Tclose(types[handle]);
    /* Without a shapes scale (ILSVRC's encoded_images) each example is 1-D, its length its own. */
    bool unshaped = parent->shapes_name == NULL && source->example_rank == 0;
    if (state->memory_type < 0 || (state->shapes < 0 && !unshaped) ||
        (source->example_rank < 1 && !unshaped))
        return error_set(EXIT_CORRUPT_INPUT, "cannot cut: %s: variable-length source %s has no "
                         "readable data or shapes scale", plan->file->path, source->name);
    return EXIT_OK;
}

/* The requested count of SPLIT; EXIT_USAGE for a named split the file lacks. */
static int requested_examples(const struct cut_plan *plan, const struct cut_request *request,
                              size_t split, uint64_t *examples)
{
    *examples = request->examples;
    for (size_t named = 0; named < request->named_count; named++)
        if (strcmp(request->split_names[named], plan->file->splits[split]) == 0)
            *examples = request->split_examples[named];
    return EXIT_OK;
}

static int names_check(const struct cut_plan *plan, const struct cut_request *request)
{
    for (size_t named = 0; named < request->named_count; named++) {
        bool found = false;
        for (size_t split = 0; split < plan->split_count; split++)
            found = found || strcmp(request->split_names[named], plan->file->splits[split]) == 0;
        if (!found) {
            char splits[1024];
            h5py_split_list(plan->file, splits, sizeof splits);
            return error_set(EXIT_USAGE, "no split %s: %s; %s", request->split_names[named],
                             plan->file->path, splits);
        }
    }
    return EXIT_OK;
}

/* Selection sampling (Knuth's algorithm S): KEPT of COUNT positions, in increasing order. */
static int positions_draw(struct cut_plan *plan, size_t split, uint64_t count, uint64_t seed)
{
    uint64_t kept = plan->kept[split];
    plan->positions[split] = malloc((kept + 1) * sizeof *plan->positions[split]);
    if (plan->positions[split] == NULL)
        return error_set(EXIT_OTHER, "cannot cut: out of memory");
    struct random_state random;
    random_seed(&random, seed, split);
    uint64_t chosen = 0;
    for (uint64_t position = 0; chosen < kept && position < count; position++)
        if (random_below(&random, count - position) < kept - chosen)
            plan->positions[split][chosen++] = position;
    return EXIT_OK;
}

/* The selections of every (source, split) pair, the examples kept and where they go. */
static int splits_plan(struct cut_plan *plan, const struct cut_request *request)
{
    for (size_t split = 0; split < plan->split_count; split++) {
        uint64_t available = UINT64_MAX, wanted;
        for (size_t source = 0; source < plan->source_count; source++) {
            struct source_state *state = &plan->states[source];
            error_clear();
            int result = h5py_selection_find(&state->selections[split], plan->file,
                                             plan->file->splits[split], plan->sources[source].name);
            if (result == EXIT_CORRUPT_INPUT)
                return result;
            state->available[split] = result == EXIT_OK;
            if (result == EXIT_OK && state->selections[split].count < available)
                available = state->selections[split].count;
        }
        error_clear();
        requested_examples(plan, request, split, &wanted);
        plan->kept[split] = available == UINT64_MAX ? 0 : wanted < available ? wanted : available;
        if (request->shuffle && plan->kept[split] > 0) {
            int result = positions_draw(plan, split, available, request->seed);
            if (result != EXIT_OK)
                return result;
        }
    }
    for (size_t source = 0; source < plan->source_count; source++) {
        uint64_t total = 0;
        for (size_t split = 0; split < plan->split_count; split++) {
            plan->states[source].start[split] = total;
            total += plan->states[source].available[split] ? plan->kept[split] : 0;
        }
        plan->sources[source].shape[0] = total;
    }
    return EXIT_OK;
}

static int plan_build(struct cut_plan *plan, const char *path, const struct cut_request *request)
{
    int result = h5py_input_open(&plan->file, path);
    if (result != EXIT_OK)
        return result;
    plan->source_count = plan->file->source_count;
    plan->split_count = plan->file->split_count;
    if (plan->split_count > CUT_MAX_SPLITS)
        return error_set(EXIT_CORRUPT_INPUT, "cannot cut: %s: more than %d splits", path,
                         CUT_MAX_SPLITS);
    plan->sources = calloc(plan->source_count + 1, sizeof *plan->sources);
    plan->states = calloc(plan->source_count + 1, sizeof *plan->states);
    if (plan->sources == NULL || plan->states == NULL)
        return error_set(EXIT_OTHER, "cannot cut: out of memory");
    for (size_t source = 0; source < plan->source_count; source++)
        plan->states[source].dataset = plan->states[source].shapes =
            plan->states[source].memory_type = -1;
    result = names_check(plan, request);
    for (size_t source = 0; result == EXIT_OK && source < plan->source_count; source++)
        result = source_describe(plan, source);
    for (size_t source = 0; result == EXIT_OK && source < plan->source_count; source++)
        result = source_open(plan, source);
    return result == EXIT_OK ? splits_plan(plan, request) : result;
}

int cut_plan_open(struct cut_plan **plan, const char *path, const struct cut_request *request)
{
    *plan = calloc(1, sizeof **plan);
    if (*plan == NULL)
        return error_set(EXIT_OTHER, "cannot cut: out of memory");
    int result = plan_build(*plan, path, request);
    if (result != EXIT_OK) {
        cut_plan_close(*plan);
        *plan = NULL;
    }
    return result;
}

void cut_plan_close(struct cut_plan *plan)
{
    if (plan == NULL)
        return;
    for (size_t source = 0; plan->states != NULL && source < plan->source_count; source++) {
        struct source_state *state = &plan->states[source];
        if (state->examples_open)
            h5py_examples_close(&state->examples);
        hid_t handles[2] = {state->dataset, state->shapes};
        for (size_t handle = 0; handle < 2; handle++)
            if (handles[handle] >= 0)
                H5Dclose(handles[handle]);
        if (state->memory_type >= 0)
            H5Tclose(state->memory_type);
        for (size_t split = 0; split < plan->split_count; split++)
            h5py_selection_free(&state->selections[split]);
    }
    for (size_t split = 0; split < CUT_MAX_SPLITS; split++)
        free(plan->positions[split]);
    free(plan->states);
    free(plan->sources);
    free(plan->indices);
    h5py_reader_close(plan->file);
    free(plan);
}

size_t cut_plan_source_count(const struct cut_plan *plan)
{
    return plan->source_count;
}

const struct cut_source *cut_plan_source(const struct cut_plan *plan, size_t source)
{
    return &plan->sources[source];
}

size_t cut_plan_split_count(const struct cut_plan *plan)
{
    return plan->split_count;
}

const char *cut_plan_split_name(const struct cut_plan *plan, size_t split)
{
    return plan->file->splits[split];
}

uint64_t cut_plan_split_examples(const struct cut_plan *plan, size_t split)
{
    return plan->kept[split];
}

bool cut_plan_range(const struct cut_plan *plan, size_t source, size_t split, uint64_t *start,
                    uint64_t *stop)
{
    const struct source_state *state = &plan->states[source];
    *start = state->start[split];
    *stop = *start + plan->kept[split];
    return state->available[split];
}

const char *cut_plan_parent_command(const struct cut_plan *plan)
{
    return h5py_file_attribute(plan->file, "fuel_convert_command");
}

/* The parent's index of example INDEX of SOURCE in the cut file. */
static uint64_t parent_index(const struct cut_plan *plan, size_t source, uint64_t index)
{
    const struct source_state *state = &plan->states[source];
    size_t split = 0;
    while (split + 1 < plan->split_count &&
           (!state->available[split] || index >= state->start[split] + plan->kept[split]))
        split++;
    uint64_t position = index - state->start[split];
    if (plan->positions[split] != NULL)
        position = plan->positions[split][position];
    return h5py_selection_example(&state->selections[split], position);
}

int cut_plan_read(struct cut_plan *plan, size_t source, uint64_t first, uint64_t count,
                  void *buffer)
{
    if (count > plan->indices_capacity) {
        free(plan->indices);
        plan->indices = malloc(count * sizeof *plan->indices);
        plan->indices_capacity = plan->indices != NULL ? count : 0;
        if (plan->indices == NULL)
            return error_set(EXIT_OTHER, "cannot cut: out of memory");
    }
    for (uint64_t number = 0; number < count; number++)
        plan->indices[number] = parent_index(plan, source, first + number);
    return h5py_examples_read_indices(&plan->states[source].examples, plan->indices, (size_t)count,
                                      buffer);
}

static int vlen_element_read(struct cut_plan *plan, size_t source, uint64_t parent, hvl_t *element,
                             uint16_t *shape)
{
    struct source_state *state = &plan->states[source];
    int columns = plan->sources[source].example_rank;
    hsize_t offset[2] = {parent, 0}, one[2] = {1, (hsize_t)columns};
    hid_t space = H5Dget_space(state->dataset), memory = H5Screate_simple(1, one, NULL);
    hid_t shapes_space = columns > 0 ? H5Dget_space(state->shapes) : -1;
    hid_t shapes_memory = columns > 0 ? H5Screate_simple(2, one, NULL) : -1;
    herr_t status = H5Sselect_hyperslab(space, H5S_SELECT_SET, offset, NULL, one, NULL);
    if (status >= 0)
        status = H5Dread(state->dataset, state->memory_type, memory, space, H5P_DEFAULT, element);
    if (status >= 0 && columns > 0)
        status = H5Sselect_hyperslab(shapes_space, H5S_SELECT_SET, offset, NULL, one, NULL);
    if (status >= 0 && columns > 0)
        status = H5Dread(state->shapes, H5T_NATIVE_UINT16, shapes_memory, shapes_space,
                         H5P_DEFAULT, shape);
    H5Sclose(space);
    H5Sclose(memory);
    if (columns > 0) {
        H5Sclose(shapes_space);
        H5Sclose(shapes_memory);
    }
    if (status < 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: %s example %llu", plan->file->path,
                         plan->sources[source].name, (unsigned long long)parent);
    return EXIT_OK;
}

int cut_plan_read_variable(struct cut_plan *plan, size_t source, uint64_t index, void **data,
                           size_t *capacity, uint16_t *shape, size_t *length)
{
    hvl_t element = {0, NULL};
    int result = vlen_element_read(plan, source, parent_index(plan, source, index), &element,
                                   shape);
    if (result != EXIT_OK)
        return result;
    hid_t base = H5Tget_super(plan->states[source].memory_type);
    size_t bytes = element.len * H5Tget_size(base);
    H5Tclose(base);
    uint64_t elements = plan->sources[source].example_rank > 0 ? 1 : element.len;
    for (int axis = 0; axis < plan->sources[source].example_rank; axis++)
        elements *= shape[axis];
    *length = element.len;
    if (elements != element.len)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot cut: %s: %s example %llu holds %zu "
                           "elements but its shape says %llu", plan->file->path,
                           plan->sources[source].name, (unsigned long long)index, element.len,
                           (unsigned long long)elements);
    if (result == EXIT_OK && bytes > *capacity) {
        void *grown = realloc(*data, bytes);
        if (grown == NULL)
            result = error_set(EXIT_OTHER, "cannot cut: out of memory");
        else {
            *data = grown;
            *capacity = bytes;
        }
    }
    if (result == EXIT_OK && bytes > 0)
        memcpy(*data, element.p, bytes);
    free(element.p);
    return result;
}
