/* The plan's state and what its files share: plan.c (probing the inputs, resolving each
   source's type and shape), plan_checks.c (examples against splits, names, axes),
   plan_indices.c (the indices of non-contiguous splits) and pack_write.c (the writing). */
#ifndef FUEL_PACK_PLAN_H
#define FUEL_PACK_PLAN_H

#include "input.h"
#include "pack.h"
#include "spec.h"

#include <stdbool.h>

struct planned_source {
    const struct pack_source *spec;
    struct input_facts *facts; /* one per input */
    enum element_type type;    /* as written: the dtype given, else the inputs' own */
    bool ragged;
    int example_rank;
    uint64_t example_shape[H5PY_MAX_RANK]; /* fixed-shape sources */
    uint64_t examples;
    const char *axes[H5PY_MAX_RANK + 1]; /* the labels written ("" for none); NULL past the rank */
    const struct input_facts *classes; /* the facts holding the class names, or NULL */
    /* Per split: the examples START..STOP the split takes (contiguous and rows splits). */
    uint64_t start[PACK_MAX_SPLITS], stop[PACK_MAX_SPLITS];
};

struct planned_indices {
    uint64_t count; /* the indices .npy's length; 0 for a split without indices */
    char *name;     /* its path relative to the spec's directory, for the provenance */
};

struct pack_plan {
    struct pack_spec *spec;
    unsigned threads;
    struct planned_source sources[PACK_MAX_SOURCES];
    struct planned_indices indices[PACK_MAX_SPLITS];
    const char **paths; /* every file read, the spec first, for the provenance */
    const char **names;
    bool *supplied; /* the files an image folder's reader hands to the provenance */
    size_t file_count;
};

/* Checks each source's examples against its splits and sets its spans (plan_checks.c). */
int plan_check_splits(struct pack_plan *plan);

/* Checks the names the file would hold for clashes and each source's axes (plan_checks.c). */
int plan_check_names(struct pack_plan *plan);

/* Probes each split's indices and checks them against its sources (plan_indices.c). */
int plan_check_indices(struct pack_plan *plan);

/* Writes split SPLIT's indices as the auxiliary dataset SPLIT_indices, *INDEX its number. */
int plan_write_indices(struct pack_plan *plan, struct h5py_writer *writer, size_t split,
                       int *index);

/* "SPLIT_indices", "SOURCE_classes": the auxiliary datasets' names, into NAME (SIZE bytes). */
void plan_auxiliary_name(const char *owner, const char *suffix, char *name, size_t size);

#endif
