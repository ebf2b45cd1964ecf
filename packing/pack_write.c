/* Writes a checked plan: each source's dataset (fixed-shape, or ragged with chapter 4's scales),
   the class names and split indices, the examples input by input converted on the way, then the
   split rows with their comments. */
#include "plan.h"

#include "common/base/error.h"
#include "element_convert.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Converted elements go through this many bytes at most at a time. */
enum { CONVERTED_BYTES = 4 << 20 };

struct source_writing {
    struct pack_plan *plan;
    struct h5py_writer *writer;
    const struct planned_source *planned;
    int index;
    uint64_t row;
    struct element_conversion conversion;
    unsigned char *converted;
    size_t capacity;
    const struct stage_listener *listener;
    struct provenance *provenance;
};

static int declare_source(struct h5py_writer *writer, const struct planned_source *planned,
                          int *index)
{
    char shape_labels[1024];
    snprintf(shape_labels, sizeof shape_labels, "%s_shape_labels", planned->spec->name);
    struct h5py_source_declaration declaration = {.name = planned->spec->name,
                                                  .type = planned->type,
                                                  .int32_shapes = true,
                                                  .shape_labels_dataset = shape_labels};
    declaration.shape[0] = planned->examples;
    declaration.axis_labels[0] = planned->axes[0];
    if (planned->ragged) {
        declaration.rank = 1;
        declaration.variable_length = true;
        declaration.example_rank = planned->example_rank;
        for (int axis = 0; axis < planned->example_rank; axis++)
            declaration.shape_labels[axis] = planned->axes[axis + 1];
    } else {
        declaration.rank = planned->example_rank + 1;
        for (int axis = 0; axis < planned->example_rank; axis++) {
            declaration.shape[axis + 1] = planned->example_shape[axis];
            declaration.axis_labels[axis + 1] = planned->axes[axis + 1];
        }
    }
    return h5py_writer_add_source(writer, &declaration, index);
}

/* SOURCE_classes: the class names, class i at row i, as numpy S<n> byte strings. */
static int write_classes(struct h5py_writer *writer, const struct planned_source *planned)
{
    const struct input_facts *classes = planned->classes;
    size_t width = 1;
    for (size_t row = 0; row < classes->class_count; row++)
        if (strlen(classes->class_names[row]) > width)
            width = strlen(classes->class_names[row]);
    char name[300];
    plan_auxiliary_name(planned->spec->name, "classes", name, sizeof name);
    struct h5py_source_declaration declaration = {
        .name = name, .type = ELEMENT_STRING, .string_length = width, .rank = 1,
        .shape = {classes->class_count}, .auxiliary = true};
    char *rows = calloc(classes->class_count + 1, width);
    int index, result = rows == NULL ? error_set(EXIT_OTHER, "out of memory")
                                     : h5py_writer_add_source(writer, &declaration, &index);
    for (size_t row = 0; result == EXIT_OK && row < classes->class_count; row++)
        memcpy(rows + row * width, classes->class_names[row], strlen(classes->class_names[row]));
    if (result == EXIT_OK)
        result = h5py_writer_write(writer, index, 0, classes->class_count, rows);
    free(rows);
    return result;
}

/* ELEMENTS elements at DATA, converted to the source's type when they must be: *OUTPUT. The
   elements are those of examples from the one being written on, PER_EXAMPLE elements each. */
static int convert(struct source_writing *writing, const void *data, size_t elements,
                   uint64_t per_example, const void **output)
{
    *output = data;
    if (!element_conversion_needed(&writing->conversion))
        return EXIT_OK;
    size_t bytes = elements * element_size(writing->conversion.to);
    if (bytes > writing->capacity) {
        unsigned char *grown = realloc(writing->converted, bytes);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        writing->converted = grown;
        writing->capacity = bytes;
    }
    size_t bad;
    char text[64];
    if (!element_convert(&writing->conversion, data, writing->converted, elements, &bad, text,
                         sizeof text))
        return error_set(EXIT_CORRUPT_INPUT, "cannot convert to %s: source %s, example %" PRIu64
                         ": the value %s does not fit", element_type_dtype(writing->conversion.to),
                         writing->planned->spec->name,
                         writing->row + (per_example > 0 ? bad / per_example : 0), text);
    *output = writing->converted;
    return EXIT_OK;
}

static uint64_t elements_of(const uint64_t *shape, int rank)
{
    uint64_t elements = 1;
    for (int axis = 0; axis < rank; axis++)
        elements *= shape[axis];
    return elements;
}

static int changed(const struct source_writing *writing, const struct pack_input *input)
{
    return error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s (source %s)",
                     input->shown, writing->planned->spec->name);
}

/* A block of a fixed-shape source, converted and written in parts of CONVERTED_BYTES. */
static int write_fixed(struct source_writing *writing, const struct pack_input *input,
                       const struct example_block *block, size_t in_size)
{
    const struct planned_source *planned = writing->planned;
    uint64_t elements = elements_of(planned->example_shape, planned->example_rank);
    for (uint64_t example = 0; block->shapes != NULL && example < block->count; example++)
        for (int axis = 0; axis < planned->example_rank; axis++)
            if (block->shapes[example * (uint64_t)planned->example_rank + axis] !=
                planned->example_shape[axis])
                return changed(writing, input);
    uint64_t example_bytes = elements * element_size(planned->type);
    uint64_t part = example_bytes == 0 || example_bytes >= CONVERTED_BYTES
                        ? 1 : CONVERTED_BYTES / example_bytes;
    const unsigned char *data = block->data;
    int result = EXIT_OK;
    for (uint64_t done = 0; done < block->count && result == EXIT_OK; done += part) {
        uint64_t count = block->count - done < part ? block->count - done : part;
        const void *output;
        result = convert(writing, data + done * elements * in_size, (size_t)(count * elements),
                         elements, &output);
        if (result == EXIT_OK)
            result = h5py_writer_write(writing->writer, writing->index, writing->row, count,
                                       output);
        writing->row += count;
    }
    return result;
}

/* A block of a ragged source, example by example with its shape. */
static int write_ragged(struct source_writing *writing, const struct input_facts *facts,
                        const struct example_block *block, size_t in_size)
{
    int rank = writing->planned->example_rank;
    const unsigned char *data = block->data;
    for (uint64_t example = 0; example < block->count; example++) {
        uint32_t shape[H5PY_MAX_RANK];
        uint64_t elements = 1;
        for (int axis = 0; axis < rank; axis++) {
            shape[axis] = block->shapes != NULL ? block->shapes[example * (uint64_t)rank + axis]
                                                : (uint32_t)facts->example_shape[axis];
            elements *= shape[axis];
        }
        const void *output;
        int result = convert(writing, data, (size_t)elements, elements, &output);
        if (result == EXIT_OK)
            result = h5py_writer_write_variable_wide(writing->writer, writing->index,
                                                     writing->row, output, shape);
        if (result != EXIT_OK)
            return result;
        data += elements * in_size;
        writing->row++;
    }
    return EXIT_OK;
}

static int write_input(struct source_writing *writing, size_t number)
{
    const struct planned_source *planned = writing->planned;
    const struct pack_input *input = &planned->spec->inputs[number];
    const struct input_facts *facts = &planned->facts[number];
    const struct input_kind_reader *kind = input_kind_reader(input->kind);
    struct input_context context = {writing->plan->spec, planned->spec, writing->plan->threads,
                                    writing->provenance};
    struct input_reader *reader = NULL;
    uint64_t last = writing->row + facts->examples;
    writing->conversion = (struct element_conversion){
        facts->type, planned->type, planned->spec->has_scale, planned->spec->scale};
    int result = kind->open(&context, input, facts, &reader);
    int descriptor;
    uint64_t offset;
    if (result == EXIT_OK && !planned->ragged && kind->stored != NULL &&
        !element_conversion_needed(&writing->conversion) &&
        kind->stored(reader, &descriptor, &offset)) {
        result = h5py_writer_copy(writing->writer, writing->index, writing->row, facts->examples,
                                  descriptor, offset);
        writing->row += result == EXIT_OK ? facts->examples : 0;
        if (result == EXIT_OK && writing->listener != NULL)
            writing->listener->advance(writing->listener->context, writing->row);
    }
    struct example_block block = {.count = 1};
    while (result == EXIT_OK && writing->row < last &&
           (result = kind->next(reader, &block)) == EXIT_OK && block.count > 0) {
        if (block.count > last - writing->row)
            result = changed(writing, input);
        else if (planned->ragged)
            result = write_ragged(writing, facts, &block, element_size(facts->type));
        else
            result = write_fixed(writing, input, &block, element_size(facts->type));
        if (result == EXIT_OK && writing->listener != NULL)
            writing->listener->advance(writing->listener->context, writing->row);
    }
    if (reader != NULL)
        kind->close(reader);
    if (result == EXIT_OK && writing->row != last)
        result = changed(writing, input);
    return result;
}

static int write_source(struct pack_plan *plan, struct h5py_writer *writer, size_t source,
                        int index, const struct stage_listener *listener,
                        struct provenance *provenance)
{
    struct source_writing writing = {
        .plan = plan, .writer = writer, .planned = &plan->sources[source], .index = index,
        .listener = listener, .provenance = provenance};
    if (listener != NULL)
        listener->stage(listener->context, writing.planned->spec->name,
                        writing.planned->examples, "examples");
    int result = EXIT_OK;
    for (size_t input = 0; input < writing.planned->spec->input_count && result == EXIT_OK;
         input++)
        result = write_input(&writing, input);
    free(writing.converted);
    return result;
}

/* "SPLIT COMMENT; SOURCE COMMENT", either alone, or NULL: the comment of a split row. */
static int row_comment(const struct pack_split *split, const struct pack_source *source,
                       char *text, size_t size)
{
    if (split->comment != NULL && source->comment != NULL)
        snprintf(text, size, "%s; %s", split->comment, source->comment);
    else if (split->comment != NULL || source->comment != NULL)
        snprintf(text, size, "%s", split->comment != NULL ? split->comment : source->comment);
    else
        return 0;
    return 1;
}

static int declare_splits(struct pack_plan *plan, struct h5py_writer *writer,
                          const int *indices)
{
    const struct pack_spec *spec = plan->spec;
    int result = EXIT_OK;
    char comment[2048];
    for (size_t split = 0; split < spec->split_count; split++)
        for (size_t index = 0; index < spec->source_count && result == EXIT_OK; index++) {
            const struct planned_source *planned = &plan->sources[index];
            const char *name = planned->spec->name, *split_name = spec->splits[split].name;
            if (!planned->spec->available[split])
                continue;
            result = spec->splits[split].kind == SPLIT_INDICES
                         ? h5py_writer_add_split_indices(writer, split_name, name, indices[split])
                         : h5py_writer_add_split(writer, split_name, name, planned->start[split],
                                                 planned->stop[split]);
            if (result == EXIT_OK &&
                row_comment(&spec->splits[split], planned->spec, comment, sizeof comment))
                result = h5py_writer_comment_split(writer, split_name, name, comment);
        }
    return result;
}

int pack_plan_write(struct pack_plan *plan, struct h5py_writer *writer,
                    const struct stage_listener *listener, struct provenance *provenance)
{
    const struct pack_spec *spec = plan->spec;
    int sources[PACK_MAX_SOURCES], indices[PACK_MAX_SPLITS];
    int result = EXIT_OK;
    for (size_t index = 0; index < spec->source_count && result == EXIT_OK; index++)
        result = declare_source(writer, &plan->sources[index], &sources[index]);
    for (size_t index = 0; index < spec->source_count && result == EXIT_OK; index++)
        if (plan->sources[index].classes != NULL)
            result = write_classes(writer, &plan->sources[index]);
    for (size_t split = 0; split < spec->split_count && result == EXIT_OK; split++)
        if (spec->splits[split].kind == SPLIT_INDICES)
            result = plan_write_indices(plan, writer, split, &indices[split]);
    for (size_t index = 0; index < spec->source_count && result == EXIT_OK; index++)
        result = write_source(plan, writer, index, sources[index], listener, provenance);
    return result == EXIT_OK ? declare_splits(plan, writer, indices) : result;
}
