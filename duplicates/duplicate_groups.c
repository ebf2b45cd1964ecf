/* Sorts the examples' digests and cuts the runs of equal ones into groups (duplicate_groups.h). */
#include "duplicate_groups.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

int example_record_order(const void *left, const void *right)
{
    const struct example_record *a = left, *b = right;
    int order = memcmp(a->digest, b->digest, sizeof a->digest);
    if (order != 0)
        return order;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->split != b->split)
        return a->split < b->split ? -1 : 1;
    return a->number < b->number ? -1 : a->number > b->number;
}

static enum group_kind kind_of(const struct example_record *members, size_t count)
{
    enum group_kind kind = GROUP_WITHIN_SPLIT;
    for (size_t index = 1; index < count; index++) {
        if (members[index].file != members[0].file)
            return GROUP_ACROSS_FILES;
        if (members[index].split != members[0].split)
            kind = GROUP_ACROSS_SPLITS;
    }
    return kind;
}

static int group_add(struct duplicate_groups *groups, size_t *capacity,
                     const struct example_record *records, size_t first, size_t count)
{
    if (groups->group_count == *capacity) {
        size_t grown_capacity = *capacity > 0 ? 2 * *capacity : 64;
        struct duplicate_group *grown = realloc(groups->groups, grown_capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
        groups->groups = grown;
        *capacity = grown_capacity;
    }
    enum group_kind kind = kind_of(records + first, count);
    groups->groups[groups->group_count++] = (struct duplicate_group){
        .first = first, .count = count, .labelled = (size_t)groups->members, .kind = kind};
    groups->members += count;
    groups->kind_counts[kind]++;
    groups->extra_copies += count - 1;
    return EXIT_OK;
}

int duplicate_groups_find(struct example_digests *digests, struct duplicate_groups *groups)
{
    *groups = (struct duplicate_groups){0};
    qsort(digests->records, digests->count, sizeof *digests->records, example_record_order);
    size_t capacity = 0;
    int result = EXIT_OK;
    for (size_t first = 0, next; result == EXIT_OK && first < digests->count; first = next) {
        next = first + 1;
        while (next < digests->count && memcmp(digests->records[next].digest,
                                               digests->records[first].digest,
                                               EXAMPLE_DIGEST_BYTES) == 0)
            next++;
        if (next - first > 1)
            result = group_add(groups, &capacity, digests->records, first, next - first);
    }
    if (result != EXIT_OK)
        duplicate_groups_free(groups);
    return result;
}

int duplicate_groups_label(struct duplicate_groups *groups, const struct example_digests *digests,
                           label_lookup lookup, void *context)
{
    groups->labels = calloc(groups->members > 0 ? groups->members : 1, sizeof *groups->labels);
    if (groups->labels == NULL)
        return error_set(EXIT_OTHER, "cannot compare examples: out of memory");
    for (size_t index = 0; index < groups->group_count; index++) {
        struct duplicate_group *group = &groups->groups[index];
        struct member_label *labels = groups->labels + group->labelled;
        for (size_t member = 0; member < group->count; member++) {
            int result = lookup(context, &digests->records[group->first + member], &labels[member]);
            if (result != EXIT_OK)
                return result;
            if (labels[member].known && labels[0].known && labels[member].value != labels[0].value)
                group->label_conflict = true;
        }
        if (group->label_conflict)
            groups->conflict_count++;
    }
    return EXIT_OK;
}

void duplicate_groups_free(struct duplicate_groups *groups)
{
    free(groups->groups);
    free(groups->labels);
    *groups = (struct duplicate_groups){0};
}
