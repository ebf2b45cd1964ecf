/* The reading half of cutting a fixture from an H5PYDataset file: which examples of each split to
   keep (the first N, or N drawn at random), and reading them back source by source; h5py_cut.c
   is the writing half. */
#ifndef FUEL_H5PY_CUT_PLAN_H
#define FUEL_H5PY_CUT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUT_MAX_RANK 8
#define CUT_MAX_SPLITS 16

/* How many examples to keep of each split. */
struct cut_request {
    uint64_t examples;              /* of every split not named below */
    size_t named_count;
    const char *split_names[CUT_MAX_SPLITS];
    uint64_t split_examples[CUT_MAX_SPLITS];
    bool shuffle;                   /* a random sample (kept in file order) instead of the first */
    uint64_t seed;
};

/* One source of the cut file. */
struct cut_source {
    const char *name;
    const char *dtype; /* numpy's name of the (element) type: uint8, float32, bool, ... */
    int rank;          /* 1 for variable-length sources */
    uint64_t shape[CUT_MAX_RANK]; /* shape[0]: the examples kept, all splits */
    const char *axis_labels[CUT_MAX_RANK];
    bool variable_length;
    int example_rank;
    const char *shape_labels[CUT_MAX_RANK];
    bool int32_shapes;                /* the parent's shapes layout, kept */
    const char *shape_labels_dataset;
    size_t example_bytes; /* fixed-shape sources: bytes of one example */
    size_t string_length; /* numpy S<n> sources: n; 0 for numbers */
};

struct cut_plan;

/* Opens the parent PATH and plans the cut. EXIT_MISSING_INPUT when PATH does not exist,
   EXIT_CORRUPT_INPUT when it is not an H5PYDataset file or holds a source fuel cannot write,
   EXIT_USAGE when REQUEST names a split the file does not have. */
int cut_plan_open(struct cut_plan **plan, const char *path, const struct cut_request *request);
void cut_plan_close(struct cut_plan *plan);

size_t cut_plan_source_count(const struct cut_plan *plan);
const struct cut_source *cut_plan_source(const struct cut_plan *plan, size_t source);

size_t cut_plan_split_count(const struct cut_plan *plan);
const char *cut_plan_split_name(const struct cut_plan *plan, size_t split);
uint64_t cut_plan_split_examples(const struct cut_plan *plan, size_t split);

/* Where SPLIT's examples lie in SOURCE of the cut file; false when the parent has no such pair. */
bool cut_plan_range(const struct cut_plan *plan, size_t source, size_t split, uint64_t *start,
                    uint64_t *stop);

/* The parent's fuel_convert_command; NULL when it has none. */
const char *cut_plan_parent_command(const struct cut_plan *plan);

/* Reads examples [FIRST, FIRST + COUNT) of fixed-shape SOURCE of the cut file into BUFFER. */
int cut_plan_read(struct cut_plan *plan, size_t source, uint64_t first, uint64_t count,
                  void *buffer);

/* Reads example INDEX of variable-length SOURCE of the cut file: its elements into *DATA (grown
   as needed; *CAPACITY bytes), their count into *LENGTH and its shape (example_rank values, none
   for a source without a shapes scale) into SHAPE. */
int cut_plan_read_variable(struct cut_plan *plan, size_t source, uint64_t index, void **data,
                           size_t *capacity, uint16_t *shape, size_t *length);

#endif
