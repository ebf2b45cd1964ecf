/* A pack plan: the spec read, every input probed, each source's element type, shape and example
   count resolved from its inputs, the whole checked before anything is written. */
#include "plan.h"

#include "common/base/disk_space.h"
#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int probe_source(struct pack_plan *plan, struct planned_source *planned)
{
    const struct pack_source *source = planned->spec;
    planned->facts = calloc(source->input_count, sizeof *planned->facts);
    if (planned->facts == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct input_context context = {.spec = plan->spec, .source = source, .threads = plan->threads};
    for (size_t index = 0; index < source->input_count; index++) {
        const struct pack_input *input = &source->inputs[index];
        int result = input_kind_reader(input->kind)->probe(&context, input, &planned->facts[index]);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static bool same_shape(const struct input_facts *first, const struct input_facts *other)
{
    return memcmp(first->example_shape, other->example_shape,
                  (size_t)first->example_rank * sizeof first->example_shape[0]) == 0;
}

static bool same_classes(const struct input_facts *first, const struct input_facts *other)
{
    if (first->class_count != other->class_count)
        return false;
    for (size_t index = 0; index < first->class_count; index++)
        if (strcmp(first->class_names[index], other->class_names[index]) != 0)
            return false;
    return true;
}

/* What input INDEX adds to the source: its type, rank, shape, examples and classes agree. */
static int resolve_input(struct planned_source *planned, size_t index)
{
    const struct pack_source *source = planned->spec;
    const struct input_facts *first = &planned->facts[0], *facts = &planned->facts[index];
    const struct pack_input *input = &source->inputs[index];
    if (!source->has_dtype && facts->type != first->type)
        return error_set(EXIT_CORRUPT_INPUT, "inputs of %s disagree: %s holds %s, %s holds %s; "
                         "give the source a dtype", source->name, source->inputs[0].shown,
                         element_type_dtype(first->type), input->shown,
                         element_type_dtype(facts->type));
    if (facts->example_rank != first->example_rank)
        return error_set(EXIT_CORRUPT_INPUT, "inputs of %s disagree: examples of %s have %d "
                         "axes, those of %s %d", source->name, source->inputs[0].shown,
                         first->example_rank, input->shown, facts->example_rank);
    if (input->kind == INPUT_CLASSES && planned->classes == NULL)
        planned->classes = facts;
    else if (input->kind == INPUT_CLASSES && !same_classes(planned->classes, facts))
        return error_set(EXIT_CORRUPT_INPUT, "inputs of %s disagree: the class folders of %s "
                         "differ from those of the first {classes: DIR}", source->name,
                         input->shown);
    planned->ragged |= facts->ragged || !same_shape(first, facts);
    if (planned->examples > UINT64_MAX / 2 - facts->examples)
        return error_set(EXIT_CORRUPT_INPUT, "source %s: too many examples", source->name);
    planned->examples += facts->examples;
    return EXIT_OK;
}

/* Labels when the spec gives none: images' and classes' own, else none. */
static void default_axes(struct planned_source *planned)
{
    static const char *const image_axes[] = {"batch", "channel", "height", "width"};
    static const char *const class_axes[] = {"batch", "index"};
    enum input_kind kind = planned->spec->inputs[0].kind;
    for (int axis = 0; axis <= planned->example_rank; axis++)
        planned->axes[axis] = kind == INPUT_IMAGES && planned->example_rank == 3 ? image_axes[axis]
                              : kind == INPUT_CLASSES && planned->example_rank == 1
                                  ? class_axes[axis]
                                  : "";
}

static int resolve_source(struct planned_source *planned)
{
    const struct pack_source *source = planned->spec;
    const struct input_facts *first = &planned->facts[0];
    planned->example_rank = first->example_rank;
    memcpy(planned->example_shape, first->example_shape, sizeof planned->example_shape);
    planned->type = source->has_dtype ? source->dtype : first->type;
    for (size_t index = 0; index < source->input_count; index++) {
        int result = resolve_input(planned, index);
        if (result != EXIT_OK)
            return result;
    }
    int limit = planned->ragged ? H5PY_MAX_RANK : H5PY_MAX_RANK - 1;
    if (planned->example_rank > limit || (planned->ragged && planned->example_rank == 0))
        return error_set(EXIT_CORRUPT_INPUT, "source %s: examples of %d axes: a %s source "
                         "holds 1 to %d", source->name, planned->example_rank,
                         planned->ragged ? "ragged" : "fixed-shape", limit);
    if (source->axes != NULL)
        for (size_t axis = 0; axis < source->axis_count && axis <= H5PY_MAX_RANK; axis++)
            planned->axes[axis] = source->axes[axis];
    else
        default_axes(planned);
    return EXIT_OK;
}

static int file_add(struct pack_plan *plan, const char *path, const char *name)
{
    if ((plan->file_count & (plan->file_count - 1)) == 0) {
        size_t capacity = plan->file_count == 0 ? 1 : plan->file_count * 2;
        const char **paths = realloc(plan->paths, capacity * sizeof *paths);
        if (paths != NULL)
            plan->paths = paths;
        const char **names = realloc(plan->names, capacity * sizeof *names);
        if (names != NULL)
            plan->names = names;
        if (paths == NULL || names == NULL)
            return error_set(EXIT_OTHER, "out of memory");
    }
    plan->paths[plan->file_count] = path;
    plan->names[plan->file_count++] = name;
    return EXIT_OK;
}

/* Orders pointers to path slots by path, then by slot (the first listed first). */
static int compare_slots(const void *left, const void *right)
{
    const char *const *first = *(const char *const *const *)left;
    const char *const *second = *(const char *const *const *)right;
    int order = strcmp(*first, *second);
    return order != 0 ? order : (first < second ? -1 : first > second);
}

/* Drops the files listed twice (a folder's images read as images and as classes), keeping the
   first of each in its place; KEPT[i] is where the i-th file listed went. */
static int files_deduplicate(struct pack_plan *plan, size_t *kept)
{
    const char **paths = plan->paths;
    const char ***slots = malloc((plan->file_count + 1) * sizeof *slots);
    size_t *first = malloc((plan->file_count + 1) * sizeof *first);
    if (slots == NULL || first == NULL) {
        free(slots);
        free(first);
        return error_set(EXIT_OTHER, "out of memory");
    }
    for (size_t index = 0; index < plan->file_count; index++)
        slots[index] = &paths[index];
    qsort(slots, plan->file_count, sizeof *slots, compare_slots);
    for (size_t index = 0; index < plan->file_count; index++) {
        size_t listed = (size_t)(slots[index] - paths);
        first[listed] = index > 0 && strcmp(*slots[index], *slots[index - 1]) == 0
                            ? first[slots[index - 1] - paths]
                            : listed;
    }
    size_t count = 0;
    for (size_t index = 0; index < plan->file_count; index++)
        if (first[index] == index) {
            plan->names[count] = plan->names[index];
            paths[count] = paths[index];
            kept[index] = count++;
        } else {
            kept[index] = kept[first[index]];
        }
    plan->file_count = count;
    free(slots);
    free(first);
    return EXIT_OK;
}

/* Each input's files' places among the plan's files; an image folder's are flagged supplied:
   its reader hands the provenance the bytes it decodes. */
static int files_place(struct pack_plan *plan, const size_t *kept)
{
    plan->supplied = calloc(plan->file_count + 1, sizeof *plan->supplied);
    if (plan->supplied == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    size_t listed = 1;
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        const struct planned_source *planned = &plan->sources[index];
        for (size_t input = 0; input < planned->spec->input_count; input++) {
            struct input_facts *facts = &planned->facts[input];
            facts->provenance_indices = malloc((facts->file_count + 1) * sizeof(size_t));
            if (facts->provenance_indices == NULL)
                return error_set(EXIT_OTHER, "out of memory");
            for (size_t file = 0; file < facts->file_count; file++, listed++) {
                facts->provenance_indices[file] = kept[listed];
                if (planned->spec->inputs[input].kind == INPUT_IMAGES)
                    plan->supplied[kept[listed]] = true;
            }
        }
    }
    return EXIT_OK;
}

static int files_list(struct pack_plan *plan)
{
    const struct pack_spec *spec = plan->spec;
    const char *slash = strrchr(spec->path, '/');
    int result = file_add(plan, spec->path, slash != NULL ? slash + 1 : spec->path);
    for (size_t index = 0; index < spec->source_count && result == EXIT_OK; index++) {
        const struct planned_source *planned = &plan->sources[index];
        for (size_t input = 0; input < planned->spec->input_count; input++)
            for (size_t file = 0; file < planned->facts[input].file_count && result == EXIT_OK;
                 file++)
                result = file_add(plan, planned->facts[input].files[file],
                                  planned->facts[input].file_names[file]);
    }
    for (size_t split = 0; split < spec->split_count && result == EXIT_OK; split++)
        if (spec->splits[split].kind == SPLIT_INDICES)
            result = file_add(plan, spec->splits[split].indices, plan->indices[split].name);
    size_t *kept = result == EXIT_OK ? malloc((plan->file_count + 1) * sizeof *kept) : NULL;
    if (result == EXIT_OK && kept == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK)
        result = files_deduplicate(plan, kept);
    if (result == EXIT_OK)
        result = files_place(plan, kept);
    free(kept);
    return result;
}

int pack_plan_open(struct pack_plan **plan, const char *spec_path, unsigned threads)
{
    *plan = calloc(1, sizeof **plan);
    if (*plan == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    (*plan)->threads = threads > 0 ? threads : 1;
    int result = pack_spec_read(spec_path, &(*plan)->spec);
    for (size_t index = 0; result == EXIT_OK && index < (*plan)->spec->source_count; index++) {
        struct planned_source *planned = &(*plan)->sources[index];
        planned->spec = &(*plan)->spec->sources[index];
        result = probe_source(*plan, planned);
        if (result == EXIT_OK)
            result = resolve_source(planned);
    }
    if (result == EXIT_OK)
        result = plan_check_names(*plan);
    if (result == EXIT_OK)
        result = plan_check_splits(*plan);
    if (result == EXIT_OK)
        result = plan_check_indices(*plan);
    if (result == EXIT_OK)
        result = files_list(*plan);
    if (result != EXIT_OK) {
        pack_plan_close(*plan);
        *plan = NULL;
    }
    return result;
}

const char *pack_plan_name(const struct pack_plan *plan)
{
    return plan->spec->name;
}

uint64_t pack_plan_bytes(const struct pack_plan *plan)
{
    uint64_t bytes = 0;
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        const struct planned_source *source = &plan->sources[index];
        uint64_t elements = source->examples;
        for (int axis = 0; !source->ragged && axis < source->example_rank; axis++)
            elements = disk_space_product(elements, source->example_shape[axis]);
        if (!source->ragged)
            bytes = disk_space_sum(bytes, disk_space_product(elements,
                                                             element_size(source->type)));
    }
    return bytes;
}

const char *pack_plan_spec_text(const struct pack_plan *plan)
{
    return plan->spec->text;
}

size_t pack_plan_files(const struct pack_plan *plan, const char *const **paths,
                       const char *const **names, const bool **supplied)
{
    *paths = plan->paths;
    *names = plan->names;
    *supplied = plan->supplied;
    return plan->file_count;
}

/* Applies FREE_FACTS to the facts of every input of every source. */
static void input_facts_free_each(struct pack_plan *plan, void (*free_facts)(struct input_facts *))
{
    for (size_t index = 0; plan->spec != NULL && index < plan->spec->source_count; index++) {
        struct planned_source *planned = &plan->sources[index];
        for (size_t input = 0; planned->facts != NULL && input < planned->spec->input_count;
             input++)
            free_facts(&planned->facts[input]);
    }
}

void pack_plan_files_release(struct pack_plan *plan)
{
    input_facts_free_each(plan, input_facts_files_free);
    free(plan->paths);
    free(plan->names);
    free(plan->supplied);
    plan->paths = plan->names = NULL;
    plan->supplied = NULL;
    plan->file_count = 0;
}

void pack_plan_close(struct pack_plan *plan)
{
    if (plan == NULL)
        return;
    pack_plan_files_release(plan);
    input_facts_free_each(plan, input_facts_free);
    for (size_t index = 0; plan->spec != NULL && index < plan->spec->source_count; index++)
        free(plan->sources[index].facts);
    for (size_t split = 0; split < PACK_MAX_SPLITS; split++)
        free(plan->indices[split].name);
    pack_spec_free(plan->spec);
    free(plan);
}
