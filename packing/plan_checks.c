/* A plan's checks before anything is written: each source's examples against the splits it is
   in (the counts named when they disagree), its axes, and the names the file would hold. */
#include "plan.h"

#include "common/base/error.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void plan_auxiliary_name(const char *owner, const char *suffix, char *name, size_t size)
{
    snprintf(name, size, "%s_%s", owner, suffix);
}

/* "a.npy 90, b.npy 5": the examples of each input of PLANNED. */
static void input_counts(const struct planned_source *planned, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t index = 0; index < planned->spec->input_count && used < size; index++)
        used += (size_t)snprintf(text + used, size - used, "%s%s %" PRIu64, index ? ", " : "",
                                 planned->spec->inputs[index].shown,
                                 planned->facts[index].examples);
}

/* "train 90, test 10": the contiguous splits PLANNED is in and their examples. */
static void split_counts(const struct pack_plan *plan, const struct planned_source *planned,
                         char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t split = 0; split < plan->spec->split_count && used < size; split++)
        if (planned->spec->available[split] && plan->spec->splits[split].kind == SPLIT_EXAMPLES)
            used += (size_t)snprintf(text + used, size - used, "%s%s %" PRIu64,
                                     used ? ", " : "", plan->spec->splits[split].name,
                                     plan->spec->splits[split].examples);
}

static int counts_disagree(const struct pack_plan *plan, const struct planned_source *planned,
                           uint64_t taken, const char *verb)
{
    char inputs[1024], splits[1024];
    input_counts(planned, inputs, sizeof inputs);
    split_counts(plan, planned, splits, sizeof splits);
    return error_set(EXIT_CORRUPT_INPUT,
                     "example counts disagree: source %s has %" PRIu64 " examples (%s), its "
                     "splits %s %" PRIu64 " (%s)", planned->spec->name, planned->examples, inputs,
                     verb, taken, splits);
}

/* The spans of PLANNED's splits: contiguous ones one after another, rows as given. */
static int source_spans(const struct pack_plan *plan, struct planned_source *planned)
{
    uint64_t offset = 0;
    bool contiguous_only = true;
    for (size_t index = 0; index < plan->spec->split_count; index++) {
        const struct pack_split *split = &plan->spec->splits[index];
        if (!planned->spec->available[index])
            continue;
        if (split->kind == SPLIT_EXAMPLES) {
            if (split->examples > UINT64_MAX / 2 - offset)
                return counts_disagree(plan, planned, UINT64_MAX, "take more than");
            planned->start[index] = offset;
            planned->stop[index] = offset += split->examples;
            continue;
        }
        contiguous_only = false;
        if (split->kind == SPLIT_ROWS && split->stop > planned->examples)
            return error_set(EXIT_CORRUPT_INPUT, "rows out of range: split %s takes rows "
                             "%" PRIu64 ":%" PRIu64 " but source %s has %" PRIu64 " examples",
                             split->name, split->start, split->stop, planned->spec->name,
                             planned->examples);
        planned->start[index] = split->start;
        planned->stop[index] = split->stop;
    }
    if (contiguous_only && offset != planned->examples)
        return counts_disagree(plan, planned, offset, "take");
    if (offset > planned->examples)
        return counts_disagree(plan, planned, offset, "take");
    return EXIT_OK;
}

int plan_check_splits(struct pack_plan *plan)
{
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        int result = source_spans(plan, &plan->sources[index]);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static int axes_check(const struct planned_source *planned)
{
    const struct pack_source *source = planned->spec;
    size_t axes = (size_t)planned->example_rank + 1;
    if (source->axes == NULL || source->axis_count == axes)
        return EXIT_OK;
    char shape[256] = "batch";
    size_t used = strlen(shape);
    for (int axis = 0; axis < planned->example_rank && used < sizeof shape; axis++)
        used += planned->ragged
                    ? (size_t)snprintf(shape + used, sizeof shape - used, ", varying")
                    : (size_t)snprintf(shape + used, sizeof shape - used, ", %" PRIu64,
                                       planned->example_shape[axis]);
    return error_set(EXIT_CORRUPT_INPUT, "axes of %s: %zu labels, but its data has %zu axes "
                     "(%s)", source->name, source->axis_count, axes, shape);
}

/* Every dataset name the file would hold, refused when two are the same. */
static int names_unique(const struct pack_plan *plan)
{
    char names[PACK_MAX_SOURCES * 3 + PACK_MAX_SPLITS][256];
    size_t count = 0;
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        const struct planned_source *planned = &plan->sources[index];
        snprintf(names[count++], sizeof names[0], "%s", planned->spec->name);
        if (planned->ragged) {
            plan_auxiliary_name(planned->spec->name, "shapes", names[count++], sizeof names[0]);
            plan_auxiliary_name(planned->spec->name, "shape_labels", names[count++],
                                sizeof names[0]);
        }
        if (planned->classes != NULL)
            plan_auxiliary_name(planned->spec->name, "classes", names[count++], sizeof names[0]);
    }
    for (size_t split = 0; split < plan->spec->split_count; split++)
        if (plan->spec->splits[split].kind == SPLIT_INDICES)
            plan_auxiliary_name(plan->spec->splits[split].name, "indices", names[count++],
                                sizeof names[0]);
    for (size_t index = 0; index < count; index++)
        for (size_t other = 0; other < index; other++)
            if (strcmp(names[index], names[other]) == 0)
                return error_set(EXIT_USAGE, "name clash in %s: the file would hold two "
                                 "datasets named %s; rename a source or split",
                                 plan->spec->path, names[index]);
    return EXIT_OK;
}

int plan_check_names(struct pack_plan *plan)
{
    for (size_t index = 0; index < plan->spec->source_count; index++) {
        int result = axes_check(&plan->sources[index]);
        if (result != EXIT_OK)
            return result;
    }
    return names_unique(plan);
}
