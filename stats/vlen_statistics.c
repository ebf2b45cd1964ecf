/* The statistics of one split of a variable-length source, one example at a time: each axis'
   lengths (from the `shapes` scale, or the element count without one) with their median, the
   bytes, the values (unless they are stored JPEG files, of which only the sizes count) and, for a
   label source, every element's class. */
#include "common/base/error.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "statistics_parts.h"

#include <stdlib.h>
#include <string.h>

static int length_compare(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

/* Fills AXIS's minimum, median and maximum from its COUNT lengths, sorting them. */
static void lengths_summarise(struct axis_lengths *axis, uint64_t *lengths, size_t count)
{
    if (count == 0)
        return;
    qsort(lengths, count, sizeof *lengths, length_compare);
    axis->minimum = lengths[0];
    axis->maximum = lengths[count - 1];
    axis->median = count % 2 == 1 ? (double)lengths[count / 2]
                                  : ((double)lengths[count / 2 - 1] + (double)lengths[count / 2]) / 2;
}

static void axes_name(struct source_statistics *statistics, const struct h5py_file_source *facts,
                      int rank)
{
    statistics->axis_count = (size_t)rank;
    for (int axis = 0; axis < rank; axis++) {
        bool named = facts->shape_label_count == (size_t)rank && facts->shape_labels[axis][0];
        if (named)
            snprintf(statistics->axes[axis].name, sizeof statistics->axes[axis].name, "%s",
                     facts->shape_labels[axis]);
        else
            snprintf(statistics->axes[axis].name, sizeof statistics->axes[axis].name,
                     rank == 1 ? "length" : "axis %d", axis);
    }
}

static struct numeric_type vlen_type(const struct h5py_vlen_examples *examples)
{
    struct numeric_type type = {'u', examples->element_size};
    if (examples->is_bool)
        type.kind = 'b';
    else if (examples->is_float)
        type.kind = 'f';
    else if (H5Tget_sign(examples->base_type) == H5T_SGN_2)
        type.kind = 'i';
    return type;
}

static bool jpeg_bytes(const void *data, size_t count, struct numeric_type type)
{
    const unsigned char *bytes = data;
    return type.kind == 'u' && type.size == 1 && count >= 3 && bytes[0] == 0xFF &&
           bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

/* Adds example DATA of COUNT elements: bytes, values, classes. *SCRATCH grows as needed. */
static int example_add(struct source_statistics *statistics, void *data, size_t count,
                       struct numeric_type type, double **scratch, size_t *scratch_size)
{
    statistics->bytes += (uint64_t)count * type.size;
    if (statistics->jpeg)
        return EXIT_OK;
    if (!statistics->overall.exact && count > *scratch_size) {
        double *grown = realloc(*scratch, count * sizeof **scratch);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot summarise: out of memory");
        *scratch = grown;
        *scratch_size = count;
    }
    value_summary_add(&statistics->overall, data, count, 1, type, *scratch);
    int result = EXIT_OK;
    for (size_t index = 0; statistics->is_label && result == EXIT_OK && index < count; index++)
        result = source_statistics_count_class(statistics, element_value(data, index, type));
    return result;
}

/* Reads every example of SELECTION, its lengths into LENGTHS (rank x count). */
static int examples_walk(struct source_statistics *statistics,
                         const struct h5py_vlen_examples *examples,
                         const struct h5py_selection *selection,
                         const struct stage_listener *listener, uint64_t *lengths)
{
    struct numeric_type type = vlen_type(examples);
    double *scratch = NULL;
    size_t scratch_size = 0, rank = (size_t)examples->example_rank;
    int result = EXIT_OK;
    for (uint64_t number = 0; result == EXIT_OK && number < selection->count; number++) {
        uint64_t index = h5py_selection_example(selection, number), shape[H5PY_VLEN_MAX_RANK];
        void *data = NULL;
        size_t count = 0;
        result = h5py_vlen_examples_shape(examples, index, shape);
        if (result == EXIT_OK)
            result = h5py_vlen_examples_read(examples, index, &data, &count);
        for (size_t axis = 0; result == EXIT_OK && axis < rank; axis++)
            lengths[axis * selection->count + number] = shape[axis];
        if (result == EXIT_OK && number == 0)
            statistics->jpeg = jpeg_bytes(data, count, type);
        if (result == EXIT_OK)
            result = example_add(statistics, data, count, type, &scratch, &scratch_size);
        free(data);
        if (listener != NULL && (number % 1024 == 1023 || number + 1 == selection->count))
            listener->advance(listener->context, number + 1);
    }
    free(scratch);
    statistics->numeric = !statistics->jpeg;
    return result;
}

int vlen_statistics_compute(const struct h5py_file *file, const char *source,
                            const struct h5py_selection *selection,
                            const struct stage_listener *listener,
                            struct source_statistics *statistics)
{
    struct h5py_vlen_examples examples;
    int result = h5py_vlen_examples_open(&examples, file, source);
    if (result != EXIT_OK)
        return result;
    const struct h5py_file_source *facts = h5py_file_source(file, source);
    snprintf(statistics->dtype, sizeof statistics->dtype, "%s", facts->dtype);
    struct numeric_type type = vlen_type(&examples);
    value_summary_begin(&statistics->overall, type);
    statistics->is_label = statistics_label_name(source);
    axes_name(statistics, facts, examples.example_rank);
    size_t rank = (size_t)examples.example_rank;
    uint64_t *lengths = selection->count <= SIZE_MAX / sizeof(uint64_t) / rank
                            ? malloc((size_t)selection->count * rank * sizeof *lengths + 1)
                            : NULL;
    result = lengths == NULL ? error_set(EXIT_OTHER, "cannot read source %s: out of memory",
                                         source)
                             : examples_walk(statistics, &examples, selection, listener, lengths);
    for (size_t axis = 0; result == EXIT_OK && axis < rank; axis++)
        lengths_summarise(&statistics->axes[axis], lengths + axis * selection->count,
                          (size_t)selection->count);
    free(lengths);
    h5py_vlen_examples_close(&examples);
    return result;
}
