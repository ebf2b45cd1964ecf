/* The first sections of the content diff: splits and sources one file only has; dtype, layout,
   shape and label differences of each source; differences of each split row, its indices'
   values compared block by block. */
#include "content_diff_steps.h"

#include "common/base/error.h"
#include "common/h5py/content_blocks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool listed(char *const *names, size_t count, const char *name)
{
    for (size_t index = 0; index < count; index++)
        if (strcmp(names[index], name) == 0)
            return true;
    return false;
}

static int splits_only(struct content_diff_report *report, const struct h5py_file *one,
                       const struct h5py_file *other, enum content_side side)
{
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < one->split_count; index++)
        if (!listed(other->splits, other->split_count, one->splits[index]))
            result = diff_only_add(report, "split", one->splits[index], side);
    return result;
}

static int sources_only(struct content_diff_report *report, const struct h5py_file *one,
                        const struct h5py_file *other, enum content_side side)
{
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < one->source_count; index++)
        if (h5py_file_source(other, one->sources[index].name) == NULL)
            result = diff_only_add(report, "source", one->sources[index].name, side);
    return result;
}

/* "10x2x3"; "scalar" for rank 0. */
static void shape_text(const struct h5py_file_source *source, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "%s", source->rank == 0 ? "scalar" : "");
    for (int axis = 0; axis < source->rank && used < size; axis++)
        used += (size_t)snprintf(text + used, size - used, "%s%" PRIu64, axis ? "x" : "",
                                 source->shape[axis]);
}

/* LABELS joined with commas, "-" for an empty one; NULL when out of memory. */
static char *labels_text(char *const *labels, size_t count)
{
    size_t length = 1;
    for (size_t index = 0; index < count; index++)
        length += strlen(labels[index]) + 2;
    char *text = malloc(length);
    if (text == NULL)
        return NULL;
    size_t used = 0;
    text[0] = '\0';
    for (size_t index = 0; index < count; index++)
        used += (size_t)snprintf(text + used, length - used, "%s%s", index ? "," : "",
                                 labels[index][0] != '\0' ? labels[index] : "-");
    return text;
}

static int labels_compare(struct content_diff_report *report, const char *source,
                          const char *property, char *const *left, size_t left_count,
                          char *const *right, size_t right_count)
{
    char *left_text = labels_text(left, left_count), *right_text = labels_text(right, right_count);
    int result = EXIT_OK;
    if (left_text == NULL || right_text == NULL)
        result = error_set(EXIT_OTHER, "cannot compare: out of memory");
    else if (strcmp(left_text, right_text) != 0)
        result = diff_change_add(report, NULL, source, property, left_text, right_text);
    free(left_text);
    free(right_text);
    return result;
}

static int source_compare(struct content_diff_report *report, const struct h5py_file_source *left,
                          const struct h5py_file_source *right)
{
    if (left->present != right->present)
        return diff_change_add(report, NULL, left->name, "dataset",
                               left->present ? "present" : "missing",
                               right->present ? "present" : "missing");
    if (!left->present)
        return EXIT_OK;
    int result = EXIT_OK;
    if (strcmp(left->dtype, right->dtype) != 0)
        result = diff_change_add(report, NULL, left->name, "dtype", left->dtype, right->dtype);
    if (result == EXIT_OK && left->variable_length != right->variable_length)
        result = diff_change_add(report, NULL, left->name, "layout",
                                 left->variable_length ? "variable-length" : "fixed-shape",
                                 right->variable_length ? "variable-length" : "fixed-shape");
    char left_shape[512], right_shape[512];
    shape_text(left, left_shape, sizeof left_shape);
    shape_text(right, right_shape, sizeof right_shape);
    if (result == EXIT_OK && strcmp(left_shape, right_shape) != 0)
        result = diff_change_add(report, NULL, left->name, "shape", left_shape, right_shape);
    if (result == EXIT_OK)
        result = labels_compare(report, left->name, "axis labels", left->axis_labels,
                                (size_t)left->rank, right->axis_labels, (size_t)right->rank);
    if (result == EXIT_OK)
        result = labels_compare(report, left->name, "shape labels", left->shape_labels,
                                left->shape_label_count, right->shape_labels,
                                right->shape_label_count);
    return result;
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

/* "contiguous", "dangling reference" or "N indices". */
static void indices_text(const struct h5py_split_row *row, char *text, size_t size)
{
    if (row->indices == INDICES_DATASET)
        snprintf(text, size, "%" PRIu64 " indices", row->indices_length);
    else
        snprintf(text, size, "%s",
                 row->indices == INDICES_NONE ? "contiguous" : "dangling reference");
}

/* The first position where the two indices datasets' values differ (*POSITION UINT64_MAX when
   none) and the values there; both have the same shape and are read in blocks. */
static int indices_first_difference(struct content_source sources[2], uint64_t *position,
                                    int64_t values[2])
{
    *position = UINT64_MAX;
    struct content_walk walk;
    content_walk_begin(&walk, sources[0].rank, sources[0].shape, 0, sources[0].element_size,
                       CONTENT_BLOCK_BYTES);
    hsize_t start[H5S_MAX_RANK], count[H5S_MAX_RANK];
    uint64_t offset = 0;
    int result = EXIT_OK;
    while (result == EXIT_OK && *position == UINT64_MAX &&
           content_walk_next(&walk, start, count)) {
        size_t bytes = 0;
        result = content_source_read(&sources[0], start, count, &bytes);
        if (result == EXIT_OK)
            result = content_source_read(&sources[1], start, count, &bytes);
        const int64_t *left = (const int64_t *)sources[0].buffer;
        const int64_t *right = (const int64_t *)sources[1].buffer;
        for (size_t index = 0; result == EXIT_OK && index < bytes / 8; index++)
            if (left[index] != right[index]) {
                *position = offset + index;
                values[0] = left[index];
                values[1] = right[index];
                break;
            }
        offset += bytes / 8;
    }
    return result;
}

static bool same_shape(const struct content_source *left, const struct content_source *right)
{
    return left->rank == right->rank &&
           memcmp(left->shape, right->shape, (size_t)left->rank * sizeof left->shape[0]) == 0;
}

/* Two indices datasets of the same length: "index 9 at position 1" against "index 8 ...". */
static int indices_values_compare(struct content_diff_report *report,
                                  const struct h5py_file *const files[2],
                                  const struct h5py_split_row *const rows[2])
{
    struct content_source sources[2];
    int result = content_source_open_as(&sources[0], files[0], rows[0]->indices_name,
                                        H5T_STD_I64LE);
    if (result != EXIT_OK)
        return result;
    result = content_source_open_as(&sources[1], files[1], rows[1]->indices_name, H5T_STD_I64LE);
    uint64_t position = UINT64_MAX;
    int64_t values[2];
    char texts[2][96];
    if (result == EXIT_OK && !same_shape(&sources[0], &sources[1])) {
        for (int side = 0; side < 2; side++)
            snprintf(texts[side], sizeof texts[side], "%" PRIu64 " indices in %d dimensions",
                     rows[side]->indices_length, sources[side].rank);
        result = diff_change_add(report, rows[0]->split, rows[0]->source, "indices", texts[0],
                                 texts[1]);
    } else if (result == EXIT_OK) {
        result = indices_first_difference(sources, &position, values);
    }
    if (result == EXIT_OK && position != UINT64_MAX) {
        for (int side = 0; side < 2; side++)
            snprintf(texts[side], sizeof texts[side], "index %" PRId64 " at position %" PRIu64,
                     values[side], position);
        result = diff_change_add(report, rows[0]->split, rows[0]->source, "indices", texts[0],
                                 texts[1]);
    }
    content_source_close(&sources[0]);
    content_source_close(&sources[1]);
    return result;
}

static int field_compare(struct content_diff_report *report, const struct h5py_split_row *row,
                         const char *property, const char *left, const char *right)
{
    if (strcmp(left, right) == 0)
        return EXIT_OK;
    return diff_change_add(report, row->split, row->source, property, left, right);
}

static int number_compare(struct content_diff_report *report, const struct h5py_split_row *row,
                          const char *property, int64_t left, int64_t right)
{
    char texts[2][32];
    snprintf(texts[0], sizeof texts[0], "%" PRId64, left);
    snprintf(texts[1], sizeof texts[1], "%" PRId64, right);
    return field_compare(report, row, property, texts[0], texts[1]);
}

static int row_compare(struct content_diff_report *report, const struct h5py_file *const files[2],
                       const struct h5py_split_row *const rows[2])
{
    int result = number_compare(report, rows[0], "start", rows[0]->start, rows[1]->start);
    if (result == EXIT_OK)
        result = number_compare(report, rows[0], "stop", rows[0]->stop, rows[1]->stop);
    if (result == EXIT_OK)
        result = field_compare(report, rows[0], "available", rows[0]->available ? "true" : "false",
                               rows[1]->available ? "true" : "false");
    if (result == EXIT_OK)
        result = field_compare(report, rows[0], "comment", rows[0]->comment, rows[1]->comment);
    char texts[2][64];
    indices_text(rows[0], texts[0], sizeof texts[0]);
    indices_text(rows[1], texts[1], sizeof texts[1]);
    if (result == EXIT_OK && strcmp(texts[0], texts[1]) != 0)
        result = field_compare(report, rows[0], "indices", texts[0], texts[1]);
    else if (result == EXIT_OK && rows[0]->indices == INDICES_DATASET)
        result = indices_values_compare(report, files, rows);
    return result;
}

/* Each (split, source) pair both files name: its rows compared, or the row one file lacks. */
static int rows_compare(struct content_diff_report *report, const struct h5py_file *left,
                        const struct h5py_file *right)
{
    const struct h5py_file *const files[2] = {left, right};
    int result = EXIT_OK;
    for (int side = 0; side < 2 && result == EXIT_OK; side++) {
        const struct h5py_file *one = files[side], *other = files[1 - side];
        for (size_t index = 0; result == EXIT_OK && index < one->row_count; index++) {
            const struct h5py_split_row *row = &one->rows[index];
            if (row_find(one, row->split, row->source) != row ||
                !listed(other->splits, other->split_count, row->split) ||
                h5py_file_source(other, row->source) == NULL)
                continue;
            const struct h5py_split_row *match = row_find(other, row->split, row->source);
            if (match == NULL)
                result = diff_change_add(report, row->split, row->source, "row",
                                         side == 0 ? "present" : NULL,
                                         side == 0 ? NULL : "present");
            else if (side == 0)
                result = row_compare(report, files, (const struct h5py_split_row *[2]){row, match});
        }
    }
    return result;
}

int diff_structure(struct content_diff_report *report, const struct h5py_file *left,
                   const struct h5py_file *right)
{
    int result = splits_only(report, left, right, CONTENT_LEFT);
    if (result == EXIT_OK)
        result = splits_only(report, right, left, CONTENT_RIGHT);
    if (result == EXIT_OK)
        result = sources_only(report, left, right, CONTENT_LEFT);
    if (result == EXIT_OK)
        result = sources_only(report, right, left, CONTENT_RIGHT);
    for (size_t index = 0; result == EXIT_OK && index < left->source_count; index++) {
        const struct h5py_file_source *other = h5py_file_source(right, left->sources[index].name);
        if (other != NULL)
            result = source_compare(report, &left->sources[index], other);
    }
    if (result == EXIT_OK)
        result = rows_compare(report, left, right);
    return result;
}
