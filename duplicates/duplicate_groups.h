/* Groups of examples of equal values, found by sorting the digests of every example: where each
   group lies (one split, several splits of a file, several files) and, with labels, whether its
   members disagree. */
#ifndef FUEL_DUPLICATE_GROUPS_H
#define FUEL_DUPLICATE_GROUPS_H

#include "example_digests.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum group_kind {
    GROUP_WITHIN_SPLIT,  /* every member in the same split of the same file */
    GROUP_ACROSS_SPLITS, /* one file, several splits (train against test: leakage) */
    GROUP_ACROSS_FILES,
};

struct duplicate_group {
    size_t first; /* its members: records[first, first + count) of the sorted digests */
    size_t count;
    size_t labelled; /* its members' labels: labels[labelled, labelled + count) */
    enum group_kind kind;
    bool label_conflict; /* members under different labels */
};

/* A member's label: its value when the label source holds one number per example. */
struct member_label {
    bool known;
    int64_t value;
};

struct duplicate_groups {
    struct duplicate_group *groups;
    size_t group_count;
    size_t kind_counts[3];  /* groups of each kind */
    size_t conflict_count;  /* groups whose members' labels differ */
    uint64_t extra_copies;  /* examples beyond the first of each group */
    uint64_t members;       /* examples in all groups */
    struct member_label *labels; /* one per member, filled by duplicate_groups_label */
};

/* qsort's order of records: by digest, then file, split and position. */
int example_record_order(const void *left, const void *right);

/* Sorts DIGESTS (by digest, then file, split and position) and finds its groups of two or more. */
int duplicate_groups_find(struct example_digests *digests, struct duplicate_groups *groups);

/* Reads the label of record MEMBER: called for every member of every group. */
typedef int (*label_lookup)(void *context, const struct example_record *member,
                            struct member_label *label);

/* Labels every group's members through LOOKUP and marks the groups whose labels differ. */
int duplicate_groups_label(struct duplicate_groups *groups, const struct example_digests *digests,
                           label_lookup lookup, void *context);

void duplicate_groups_free(struct duplicate_groups *groups);

#endif
