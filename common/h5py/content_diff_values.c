/* The values section of the content diff: each comparable source is compared example by example
   once over its whole length, each differing example counted for the source and for the
   contiguous splits holding it (the rows of the file that has the example); a split given by
   indices is compared through its indices, read in blocks and sorted into runs. */
#include "content_diff_parts.h"

#include "common/base/error.h"
#include "content_compare.h"

#include <stdlib.h>
#include <string.h>

/* Indices of a split read at a time. */
#define INDEX_BLOCK_BYTES ((size_t)512 << 10)

struct split_tally {
    struct content_values values;
    const struct h5py_split_row *rows[2]; /* the split's row for the source in each file */
};

struct source_pass {
    const struct h5py_file *files[2];
    struct content_pair pair;
    uint64_t common;          /* examples both files hold */
    uint64_t total;           /* examples either holds */
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

static uint64_t larger(uint64_t left, uint64_t right)
{
    return left > right ? left : right;
}

/* One tally per split either file has for SOURCE, in the left file's row order first. */
static int tallies_make(struct source_pass *pass, const char *source)
{
    size_t rows = pass->files[0]->row_count + pass->files[1]->row_count;
    pass->tallies = calloc(rows + 1, sizeof *pass->tallies);
    if (pass->tallies == NULL)
        return error_set(EXIT_OTHER, "cannot compare: out of memory");
    for (int side = 0; side < 2; side++)
        for (size_t index = 0; index < pass->files[side]->row_count; index++) {
            const struct h5py_split_row *row = &pass->files[side]->rows[index];
            if (strcmp(row->source, source) != 0 || tallied(pass, row->split))
                continue;
            struct split_tally *tally = &pass->tallies[pass->tally_count++];
            tally->values.source = row->source;
            tally->values.split = row->split;
            tally->rows[0] = row_find(pass->files[0], row->split, source);
            tally->rows[1] = row_find(pass->files[1], row->split, source);
            tally->values.examples =
                larger(tally->rows[0] ? h5py_split_row_count(tally->rows[0]) : 0,
                       tally->rows[1] ? h5py_split_row_count(tally->rows[1]) : 0);
        }
    return EXIT_OK;
}

static bool contiguous_holds(const struct h5py_split_row *row, uint64_t index)
{
    return row != NULL && row->available && row->indices == INDICES_NONE && row->start >= 0 &&
           (uint64_t)row->start <= index && row->stop > row->start && index < (uint64_t)row->stop;
}

static int example_differs(void *context, uint64_t index)
{
    struct source_pass *pass = context;
    difference_count(&pass->whole, index);
    int side = index < pass->pair.counts[0] ? 0 : 1;
    for (size_t number = 0; number < pass->tally_count; number++) {
        const struct h5py_split_row *row = pass->tallies[number].rows[side];
        if (contiguous_holds(row, index))
            difference_count(&pass->tallies[number].values, index - (uint64_t)row->start);
    }
    return EXIT_OK;
}

/* An index of a split and its position in the split. */
struct placed_index {
    int64_t index;
    uint64_t position;
};

static int placed_compare(const void *left, const void *right)
{
    const struct placed_index *a = left, *b = right;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The sorted indices of one block, and which of them differ. */
struct index_block {
    struct placed_index *placed;
    bool *differs;
    size_t count;
    size_t cursor;
};

static int index_differs(void *context, uint64_t index)
{
    struct index_block *block = context;
    while (block->cursor < block->count && (uint64_t)block->placed[block->cursor].index < index)
        block->cursor++;
    for (; block->cursor < block->count && (uint64_t)block->placed[block->cursor].index == index;
         block->cursor++)
        block->differs[block->cursor] = true;
    return EXIT_OK;
}

/* Marks the block's indices whose examples differ: runs of consecutive indices both files hold
   are compared; an index one file only holds differs; one neither holds is left out. */
static int index_block_compare(struct source_pass *pass, struct index_block *block)
{
    size_t first = 0;
    int result = EXIT_OK;
    while (result == EXIT_OK && first < block->count) {
        int64_t index = block->placed[first].index;
        if (index < 0 || (uint64_t)index >= pass->total) {
            first++;
            continue;
        }
        if ((uint64_t)index >= pass->common) {
            block->differs[first++] = true;
            continue;
        }
        size_t last = first;
        while (last + 1 < block->count && (uint64_t)block->placed[last + 1].index < pass->common &&
               block->placed[last + 1].index - block->placed[last].index <= 1)
            last++;
        block->cursor = first;
        uint64_t count = (uint64_t)(block->placed[last].index - index) + 1;
        result = content_pair_compare(&pass->pair, (uint64_t)index, count, index_differs, block);
        first = last + 1;
    }
    return result;
}

/* Counts, for TALLY, the differing examples among COUNT indices VALUES of the split, the first
   at POSITION. */
static int indices_block_count(struct source_pass *pass, struct split_tally *tally,
                               const int64_t *values, size_t count, uint64_t position)
{
    struct index_block block = {.placed = malloc((count + 1) * sizeof *block.placed),
                                .differs = calloc(count + 1, sizeof *block.differs),
                                .count = count};
    int result = EXIT_OK;
    if (block.placed == NULL || block.differs == NULL)
        result = error_set(EXIT_OTHER, "cannot compare: out of memory");
    for (size_t number = 0; result == EXIT_OK && number < count; number++)
        block.placed[number] = (struct placed_index){values[number], position + number};
    if (result == EXIT_OK) {
        qsort(block.placed, count, sizeof *block.placed, placed_compare);
        result = index_block_compare(pass, &block);
    }
    for (size_t number = 0; result == EXIT_OK && number < count; number++)
        if (block.differs[number])
            difference_count(&tally->values, block.placed[number].position);
    free(block.placed);
    free(block.differs);
    return result;
}

static int indices_pass(struct source_pass *pass, struct split_tally *tally, int side)
{
    struct content_source indices;
    int result = content_source_open_as(&indices, pass->files[side],
                                        tally->rows[side]->indices_name, H5T_STD_I64LE);
    if (result != EXIT_OK)
        return result;
    struct content_walk walk;
    content_walk_begin(&walk, indices.rank, indices.shape, 0, indices.element_size,
                       INDEX_BLOCK_BYTES);
    hsize_t start[H5S_MAX_RANK], count[H5S_MAX_RANK];
    uint64_t position = 0;
    while (result == EXIT_OK && content_walk_next(&walk, start, count)) {
        size_t bytes = 0;
        result = content_source_read(&indices, start, count, &bytes);
        if (result == EXIT_OK)
            result = indices_block_count(pass, tally, (const int64_t *)indices.buffer, bytes / 8,
                                         position);
        position += bytes / 8;
    }
    content_source_close(&indices);
    return result;
}

static int source_values_compare(struct content_diff_report *report, struct source_pass *pass)
{
    int result = EXIT_OK;
    for (uint64_t first = 0; result == EXIT_OK && first < pass->common; first += SLICE_EXAMPLES) {
        uint64_t count = pass->common - first < SLICE_EXAMPLES ? pass->common - first
                                                               : SLICE_EXAMPLES;
        result = content_pair_compare(&pass->pair, first, count, example_differs, pass);
        if (pass->listener != NULL)
            pass->listener->advance(pass->listener->context, first + count);
    }
    for (uint64_t index = pass->common; result == EXIT_OK && index < pass->total; index++)
        result = example_differs(pass, index);
    for (size_t number = 0; result == EXIT_OK && number < pass->tally_count; number++) {
        struct split_tally *tally = &pass->tallies[number];
        for (int side = 0; side < 2; side++)
            if (tally->rows[side] != NULL && tally->rows[side]->available &&
                tally->rows[side]->indices == INDICES_DATASET) {
                result = indices_pass(pass, tally, side);
                break;
            }
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
    pass.common = pass.pair.counts[0] < pass.pair.counts[1] ? pass.pair.counts[0]
                                                            : pass.pair.counts[1];
    pass.total = larger(pass.pair.counts[0], pass.pair.counts[1]);
    pass.whole = (struct content_values){.source = source->name, .examples = pass.total};
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
