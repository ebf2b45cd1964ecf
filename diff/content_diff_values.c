/* The values section of the content diff: each comparable source is compared example by example
   over the examples both files hold, the rest counted as differing. Each split is compared
   position by position: position P of the left file's split against position P of the right's,
   over the positions both splits hold, the rest (the longer split's tail) counted as differing.
   A split contiguous at the same start in both files is counted during the source's pass; any
   other (moved, or given by indices) is compared through the examples its positions select,
   read in blocks and sorted into runs. */
#include "content_diff_steps.h"

#include "common/base/error.h"
#include "content_compare.h"

#include <stdlib.h>
#include <string.h>

/* Positions of a split compared at a time. */
enum { POSITION_BLOCK = 65536 };

struct split_tally {
    struct content_values values;
    const struct h5py_split_row *rows[2]; /* the split's row for the source in each file */
    uint64_t common;                      /* positions both splits hold */
    bool aligned;                         /* contiguous at the same start in both files */
};

struct source_pass {
    const struct h5py_file *files[2];
    struct content_pair pair;
    uint64_t common; /* examples both files hold */
    uint64_t slice;  /* the first example of the range being compared */
    struct content_values whole;
    struct split_tally *tallies;
    size_t tally_count;
    const struct stage_listener *listener;
};

/* Examples compared between two reports to the listener. */
enum { SLICE_EXAMPLES = 8192 };

/* Counts one differing example at POSITION, keeping the CONTENT_DIFF_FIRST smallest. */
static void difference_count(struct content_values *values, uint64_t position)
{
    values->differing++;
    size_t count = values->first_count;
    if (count == CONTENT_DIFF_FIRST && position >= values->first[count - 1])
        return;
    size_t at = count < CONTENT_DIFF_FIRST ? count : count - 1;
    for (; at > 0 && values->first[at - 1] > position; at--)
        values->first[at] = values->first[at - 1];
    values->first[at] = position;
    if (count < CONTENT_DIFF_FIRST)
        values->first_count++;
}

/* The examples one file only has: positions COMMON up to the larger count, all differing. */
static void tail_count(struct content_values *values, uint64_t common)
{
    uint64_t larger = values->counts[0] > values->counts[1] ? values->counts[0] : values->counts[1];
    for (uint64_t position = common; position < larger && position < common + CONTENT_DIFF_FIRST;
         position++)
        difference_count(values, position);
    if (larger > common + CONTENT_DIFF_FIRST)
        values->differing += larger - common - CONTENT_DIFF_FIRST;
}

static const struct h5py_split_row *row_find(const struct h5py_file *file, const char *split,
                                             const char *source)
{
    for (size_t index = 0; index < file->row_count; index++)
        if (strcmp(file->rows[index].split, split) == 0 &&
            strcmp(file->rows[index].source, source) == 0)
            return &file->rows[index];
    return NULL;
}

static bool tallied(const struct source_pass *pass, const char *split)
{
    for (size_t index = 0; index < pass->tally_count; index++)
        if (strcmp(pass->tallies[index].values.split, split) == 0)
            return true;
    return false;
}

static bool contiguous(const struct h5py_split_row *row)
{
    return row != NULL && row->available && row->indices == INDICES_NONE && row->start >= 0;
}

static void tally_fill(struct split_tally *tally, const struct source_pass *pass,
                       const struct h5py_split_row *row, const char *source)
{
    tally->values.source = row->source;
    tally->values.split = row->split;
    for (int side = 0; side < 2; side++) {
        tally->rows[side] = row_find(pass->files[side], row->split, source);
        tally->values.counts[side] =
            tally->rows[side] != NULL ? h5py_split_row_count(tally->rows[side]) : 0;
    }
    uint64_t *counts = tally->values.counts;
    tally->common = counts[0] < counts[1] ? counts[0] : counts[1];
    tally->values.examples = counts[0] > counts[1] ? counts[0] : counts[1];
    tally->aligned = contiguous(tally->rows[0]) && contiguous(tally->rows[1]) &&
                     tally->rows[0]->start == tally->rows[1]->start;
}

static bool split_listed(const struct h5py_file *file, const char *split)
{
    for (size_t index = 0; index < file->split_count; index++)
        if (strcmp(file->splits[index], split) == 0)
            return true;
    return false;
}

/* One tally per split both files have for SOURCE (one a file only has is reported as such), in
   the left file's row order first. */
static int tallies_make(struct source_pass *pass, const char *source)
{
    size_t rows = pass->files[0]->row_count + pass->files[1]->row_count;
    pass->tallies = calloc(rows + 1, sizeof *pass->tallies);
    if (pass->tallies == NULL)
        return error_set(EXIT_OTHER, "cannot compare: out of memory");
    for (int side = 0; side < 2; side++)
        for (size_t index = 0; index < pass->files[side]->row_count; index++) {
            const struct h5py_split_row *row = &pass->files[side]->rows[index];
            if (strcmp(row->source, source) == 0 && !tallied(pass, row->split) &&
                split_listed(pass->files[1 - side], row->split))
                tally_fill(&pass->tallies[pass->tally_count++], pass, row, source);
        }
    return EXIT_OK;
}

static int example_differs(void *context, uint64_t offset)
{
    struct source_pass *pass = context;
    uint64_t index = pass->slice + offset;
    difference_count(&pass->whole, index);
    for (size_t number = 0; number < pass->tally_count; number++) {
        struct split_tally *tally = &pass->tallies[number];
        uint64_t start = tally->aligned ? (uint64_t)tally->rows[0]->start : 0;
        if (tally->aligned && index >= start && index - start < tally->common)
            difference_count(&tally->values, index - start);
    }
    return EXIT_OK;
}

/* A position of a split and the example it selects in each file. */
struct placed_position {
    uint64_t examples[2];
    uint64_t position;
    bool differs;
};

static int placed_compare(const void *left, const void *right)
{
    const struct placed_position *a = left, *b = right;
    for (int side = 0; side < 2; side++)
        if (a->examples[side] != b->examples[side])
            return a->examples[side] < b->examples[side] ? -1 : 1;
    return 0;
}

static int placed_differs(void *context, uint64_t offset)
{
    ((struct placed_position *)context)[offset].differs = true;
    return EXIT_OK;
}

/* Marks the block's positions whose examples differ, comparing runs in which both files'
   examples are consecutive. */
static int placed_block_compare(struct source_pass *pass, struct placed_position *placed,
                                size_t count)
{
    qsort(placed, count, sizeof *placed, placed_compare);
    int result = EXIT_OK;
    for (size_t first = 0, last; result == EXIT_OK && first < count; first = last + 1) {
        for (last = first; last + 1 < count; last++)
            if (placed[last + 1].examples[0] != placed[last].examples[0] + 1 ||
                placed[last + 1].examples[1] != placed[last].examples[1] + 1)
                break;
        result = content_pair_compare(&pass->pair, placed[first].examples, last - first + 1,
                                      placed_differs, &placed[first]);
    }
    return result;
}

/* The examples positions [FIRST, FIRST + COUNT) of ROW select in its file, into PLACED[].examples
   [SIDE]; an index dataset is read through INDICES. */
static int positions_resolve(const struct split_tally *tally, int side,
                             struct content_source *indices, uint64_t first, size_t count,
                             struct placed_position *placed)
{
    const struct h5py_split_row *row = tally->rows[side];
    if (row->indices == INDICES_NONE) {
        for (size_t number = 0; number < count; number++)
            placed[number].examples[side] = (uint64_t)row->start + first + number;
        return EXIT_OK;
    }
    hsize_t start[1] = {first}, span[1] = {count};
    size_t bytes = 0;
    int result = content_source_read(indices, start, span, &bytes);
    const int64_t *values = (const int64_t *)indices->buffer;
    for (size_t number = 0; result == EXIT_OK && number < count; number++) {
        if (values[number] < 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot compare split %s: a negative index",
                             row->split);
        placed[number].examples[side] = (uint64_t)values[number];
    }
    return result;
}

static int positions_compare(struct source_pass *pass, struct split_tally *tally,
                             struct content_source indices[2], struct placed_position *placed)
{
    int result = EXIT_OK;
    for (uint64_t first = 0; result == EXIT_OK && first < tally->common; first += POSITION_BLOCK) {
        size_t count = tally->common - first < POSITION_BLOCK ? (size_t)(tally->common - first)
                                                              : POSITION_BLOCK;
        for (size_t number = 0; number < count; number++)
            placed[number] = (struct placed_position){.position = first + number};
        for (int side = 0; side < 2 && result == EXIT_OK; side++)
            result = positions_resolve(tally, side, &indices[side], first, count, placed);
        if (result == EXIT_OK)
            result = placed_block_compare(pass, placed, count);
        for (size_t number = 0; result == EXIT_OK && number < count; number++)
            if (placed[number].differs)
                difference_count(&tally->values, placed[number].position);
    }
    return result;
}

/* A split not aligned in the two files: its common positions compared one by one. */
static int split_compare(struct source_pass *pass, struct split_tally *tally)
{
    struct content_source indices[2];
    struct placed_position *placed = malloc(POSITION_BLOCK * sizeof *placed);
    int result = placed == NULL ? error_set(EXIT_OTHER, "cannot compare: out of memory") : EXIT_OK;
    for (int side = 0; side < 2; side++) {
        indices[side] = (struct content_source){.dataset = -1, .memory_type = -1};
        if (result == EXIT_OK && tally->rows[side]->indices == INDICES_DATASET)
            result = content_source_open_as(&indices[side], pass->files[side],
                                            tally->rows[side]->indices_name, H5T_STD_I64LE);
    }
    if (result == EXIT_OK)
        result = positions_compare(pass, tally, indices, placed);
    for (int side = 0; side < 2; side++)
        content_source_close(&indices[side]);
    free(placed);
    return result;
}

static int source_values_compare(struct content_diff_report *report, struct source_pass *pass)
{
    int result = EXIT_OK;
    for (uint64_t first = 0; result == EXIT_OK && first < pass->common; first += SLICE_EXAMPLES) {
        uint64_t count = pass->common - first < SLICE_EXAMPLES ? pass->common - first
                                                               : SLICE_EXAMPLES;
        pass->slice = first;
        result = content_pair_compare(&pass->pair, (const uint64_t[2]){first, first}, count,
                                      example_differs, pass);
        if (pass->listener != NULL)
            pass->listener->advance(pass->listener->context, first + count);
    }
    tail_count(&pass->whole, pass->common);
    for (size_t number = 0; result == EXIT_OK && number < pass->tally_count; number++) {
        struct split_tally *tally = &pass->tallies[number];
        if (!tally->aligned && tally->common > 0)
            result = split_compare(pass, tally);
        tail_count(&tally->values, tally->common);
    }
    if (result == EXIT_OK && pass->whole.differing > 0)
        result = diff_values_add(report, &pass->whole);
    for (size_t number = 0; result == EXIT_OK && number < pass->tally_count; number++)
        if (pass->tallies[number].values.differing > 0)
            result = diff_values_add(report, &pass->tallies[number].values);
    return result;
}

static int source_diff(struct content_diff_report *report, const struct h5py_file *left,
                       const struct h5py_file *right, const struct h5py_file_source *source,
                       const struct stage_listener *listener)
{
    struct source_pass pass = {.files = {left, right}, .listener = listener};
    int result = content_pair_open(&pass.pair, left, right, source);
    if (result != EXIT_OK)
        return result;
    const uint64_t *counts = pass.pair.counts;
    pass.common = counts[0] < counts[1] ? counts[0] : counts[1];
    pass.whole = (struct content_values){.source = source->name,
                                         .examples = counts[0] > counts[1] ? counts[0] : counts[1],
                                         .counts = {counts[0], counts[1]}};
    result = tallies_make(&pass, source->name);
    if (result == EXIT_OK && listener != NULL)
        listener->stage(listener->context, source->name, pass.common, "examples");
    if (result == EXIT_OK)
        result = source_values_compare(report, &pass);
    free(pass.tallies);
    content_pair_close(&pass.pair);
    return result;
}

int diff_values(struct content_diff_report *report, const struct h5py_file *left,
                const struct h5py_file *right, const struct stage_listener *listener)
{
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < left->source_count; index++) {
        const struct h5py_file_source *source = &left->sources[index];
        const struct h5py_file_source *other = h5py_file_source(right, source->name);
        if (other != NULL && content_pair_comparable(source, other))
            result = source_diff(report, left, right, source, listener);
    }
    return result;
}
