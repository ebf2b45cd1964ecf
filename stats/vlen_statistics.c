/* The statistics of one split of a variable-length source, one example at a time: each axis'
   lengths (from the `shapes` scale, or the element count without one) with their median, the
   bytes, the values (per channel where a shape label is `channel`; for stored JPEG files only
   the sizes, unless their pixels are decoded) and, for a label source, every element's class. */
#include "common/base/error.h"
#include "common/h5py/h5py_vlen_examples.h"
#include "image_decoding.h"
#include "statistics_blocks.h"

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

/* What walking a source's examples holds: its element type, the channel axis (-1: none), the
   scratch of the float path and the decoding of stored files. */
struct walk {
    struct numeric_type type;
    int channel_axis;
    size_t rank;
    double *scratch;
    size_t scratch_size;
    struct image_decoding *decoding;
};

/* Adds example DATA of COUNT elements and shape SHAPE to the channels' summaries. */
static int channels_add(struct source_statistics *statistics, const struct walk *walk,
                        const void *data, const uint64_t *shape)
{
    struct channel_layout layout = {1, (size_t)shape[walk->channel_axis], 1, true};
    for (size_t axis = 0; axis < walk->rank; axis++)
        if ((int)axis < walk->channel_axis)
            layout.outer *= (size_t)shape[axis];
        else if ((int)axis > walk->channel_axis)
            layout.inner *= (size_t)shape[axis];
    if (layout.channels > STATISTICS_MAX_CHANNELS)
        return error_set(EXIT_CORRUPT_INPUT, "cannot summarise: an example of %zu channels, "
                         "more than %d", layout.channels, STATISTICS_MAX_CHANNELS);
    int result = statistics_channels_reserve(statistics, layout.channels, walk->type);
    if (result != EXIT_OK)
        return result;
    if (layout.channels > statistics->channel_count)
        statistics->channel_count = layout.channels;
    statistics_block_summarise(statistics, layout, data, 1, walk->type, walk->scratch);
    return EXIT_OK;
}

/* Adds example DATA of COUNT elements: bytes, values, classes. WALK's scratch grows as needed. */
static int example_add(struct source_statistics *statistics, struct walk *walk, void *data,
                       size_t count, const uint64_t *shape)
{
    statistics->bytes += (uint64_t)count * walk->type.size;
    if (statistics->jpeg)
        return EXIT_OK;
    if (!statistics->overall.exact && count > walk->scratch_size) {
        double *grown = realloc(walk->scratch, count * sizeof *walk->scratch);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "cannot summarise: out of memory");
        walk->scratch = grown;
        walk->scratch_size = count;
    }
    value_summary_add(&statistics->overall, data, count, 1, walk->type, walk->scratch);
    if (walk->channel_axis < 0 && statistics->histograms != NULL)
        value_histogram_add(&statistics->histograms[0], data, count, 1, walk->type);
    int result = EXIT_OK;
    if (walk->channel_axis >= 0 && count > 0)
        result = channels_add(statistics, walk, data, shape);
    for (size_t index = 0; statistics->is_label && result == EXIT_OK && index < count; index++)
        result = source_statistics_count_class(statistics, element_value(data, index, walk->type),
                                               1);
    return result;
}

/* Example NUMBER (INDEX in the file) of COUNT elements at *DATA: a stored file to decode is handed
   over (*DATA becomes NULL), anything else summarised. */
static int example_take(struct source_statistics *statistics, struct walk *walk,
                        const struct statistics_options *options, const char *source,
                        uint64_t number, uint64_t index, void **data, size_t count,
                        const uint64_t *shape)
{
    int result = EXIT_OK;
    if (number == 0)
        statistics->jpeg = jpeg_bytes(*data, count, walk->type);
    if (number == 0 && statistics->jpeg && options->decode)
        result = image_decoding_begin(&walk->decoding, source, options->threads, statistics);
    if (result != EXIT_OK || walk->decoding == NULL)
        return result == EXIT_OK ? example_add(statistics, walk, *data, count, shape) : result;
    statistics->bytes += count;
    void *taken = *data;
    *data = NULL;
    return image_decoding_add(walk->decoding, taken, count, index);
}

/* Reads every example of SELECTION, its lengths into LENGTHS (rank x count). */
static int examples_walk(struct source_statistics *statistics,
                         const struct h5py_vlen_examples *examples,
                         const struct h5py_selection *selection,
                         const struct statistics_options *options, struct walk *walk,
                         const struct stage_listener *listener, uint64_t *lengths)
{
    int result = EXIT_OK;
    for (uint64_t number = 0; result == EXIT_OK && number < selection->count; number++) {
        uint64_t index = h5py_selection_example(selection, number), shape[H5PY_VLEN_MAX_RANK];
        void *data = NULL;
        size_t count = 0;
        result = h5py_vlen_examples_shape(examples, index, shape);
        if (result == EXIT_OK)
            result = h5py_vlen_examples_read(examples, index, &data, &count);
        for (size_t axis = 0; result == EXIT_OK && axis < walk->rank; axis++)
            lengths[axis * selection->count + number] = shape[axis];
        if (result == EXIT_OK)
            result = example_take(statistics, walk, options, examples->source, number, index,
                                  &data, count, shape);
        free(data);
        if (listener != NULL && (number % 1024 == 1023 || number + 1 == selection->count))
            listener->advance(listener->context, number + 1);
    }
    if (result == EXIT_OK && walk->decoding != NULL)
        result = image_decoding_finish(walk->decoding);
    statistics->numeric = !statistics->jpeg || statistics->decoded;
    return result;
}

/* The axis labelled channel among the shape labels, or -1. */
static int channel_axis_find(const struct h5py_file_source *facts, int rank)
{
    for (int axis = 0; axis < rank && facts->shape_label_count == (size_t)rank; axis++)
        if (strcmp(facts->shape_labels[axis], "channel") == 0)
            return axis;
    return -1;
}

int vlen_statistics_compute(const struct h5py_file *file, const char *source,
                            const struct h5py_selection *selection,
                            const struct statistics_options *options,
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
    struct walk walk = {.type = type, .channel_axis = channel_axis_find(facts, examples.example_rank),
                        .rank = rank};
    if (walk.channel_axis < 0 && !statistics->is_label)
        result = statistics_histograms_reserve(statistics, 1, type);
    uint64_t *lengths = result != EXIT_OK ? NULL
                        : selection->count <= SIZE_MAX / sizeof(uint64_t) / rank
                            ? malloc((size_t)selection->count * rank * sizeof *lengths + 1)
                            : NULL;
    result = result != EXIT_OK ? result
             : lengths == NULL ? error_set(EXIT_OTHER, "cannot read source %s: out of memory",
                                           source)
                             : examples_walk(statistics, &examples, selection, options, &walk,
                                             listener, lengths);
    image_decoding_free(walk.decoding);
    free(walk.scratch);
    for (size_t axis = 0; result == EXIT_OK && axis < rank; axis++)
        lengths_summarise(&statistics->axes[axis], lengths + axis * selection->count,
                          (size_t)selection->count);
    free(lengths);
    h5py_vlen_examples_close(&examples);
    return result;
}
