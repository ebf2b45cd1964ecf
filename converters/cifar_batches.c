/* What CIFAR-10 and CIFAR-100 share: pickled batches streamed out of a tar.gz into sources. */
#include "cifar_conversion.h"

#include "common/base/error.h"
#include "downloaders/cifar10.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXIMUM_MEMBER_BYTES = 1 << 30 };

/* The rows of a CIFAR archive can only be written once every batch has been parsed: the
   writer's datasets are contiguous, so their example count must be known when they are declared,
   members come in any order, and a batch's count is only learnt by parsing it. Holding a member
   (CIFAR-100's train is 155 MB) would break the memory bound, and reading the archive twice
   doubles the inflate time. The published archives' counts are known, so while every batch has
   its own, its rows go straight into place (cifar_direct.c). Otherwise each wanted member streams
   block by block into an unlinked scratch file beside the output, is parsed there through a
   copy-on-write mapping (the pickle's big byte string is never touched while parsing), and its
   image rows are copied into place from the scratch file at the end, a block at a time. */

static int find_member(const struct cifar_layout *layout, const char *name)
{
    if (strncmp(name, "./", 2) == 0)
        name += 2;
    for (size_t index = 0; index < layout->member_count; index++)
        if (strcmp(layout->members[index], name) == 0)
            return (int)index;
    return -1;
}

/* Appends the current member (SIZE bytes, the first of them in PREFIX) to the spool, a block at
   a time. */
static int spool_member(struct cifar_conversion *conversion, const struct cifar_prefix *prefix,
                        uint64_t size, uint64_t *offset)
{
    static const unsigned char none[1];
    int result = spool_append(conversion->spool, prefix->bytes != NULL ? prefix->bytes : none,
                              (size_t)prefix->filled, offset);
    for (uint64_t done = prefix->filled; result == EXIT_OK && done < size;) {
        size_t count = size - done < CIFAR_COPY_BYTES ? (size_t)(size - done) : CIFAR_COPY_BYTES;
        result = archive_stream_read_exactly(conversion->stream, conversion->buffer, count);
        if (result == EXIT_OK)
            result = spool_append(conversion->spool, conversion->buffer, count, NULL);
        done += count;
    }
    return result;
}

static int check_images(const struct pickle_value *data, const char *name)
{
    if (data == NULL || data->type != PICKLE_ARRAY || data->array->rank != 2 ||
        data->array->shape[1] != CIFAR_IMAGE_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "not a CIFAR batch: %s: no (N, 3072) uint8 'data'",
                         name);
    if (data->array->fortran_order)
        return error_set(EXIT_CORRUPT_INPUT,
                         "not a CIFAR batch: %s: 'data' is in Fortran order", name);
    return EXIT_OK;
}

static int copy_labels(const struct pickle_value *list, const struct cifar_labels *kind,
                       uint64_t count, const char *name, unsigned char **labels)
{
    if (list == NULL || (list->type != PICKLE_LIST && list->type != PICKLE_TUPLE) ||
        list->items->count != count)
        return error_set(EXIT_CORRUPT_INPUT,
                         "not a CIFAR batch: %s: '%s' is not a list of %llu labels", name,
                         kind->key, (unsigned long long)count);
    *labels = malloc(count ? (size_t)count : 1);
    if (*labels == NULL)
        return error_set(EXIT_OTHER, "cannot read labels: %s: out of memory", name);
    for (uint64_t index = 0; index < count; index++) {
        const struct pickle_value *label = &list->items->values[index];
        if (label->type != PICKLE_INT || label->integer < 0 || label->integer >= kind->limit)
            return error_set(EXIT_CORRUPT_INPUT,
                             "not a CIFAR batch: %s: '%s' entry %llu is not a label below %u",
                             name, kind->key, (unsigned long long)index, kind->limit);
        (*labels)[index] = (unsigned char)label->integer;
    }
    return EXIT_OK;
}

int cifar_extract_batch(const struct cifar_conversion *conversion,
                        const struct pickle_value *root, const char *name,
                        struct cifar_batch *batch, const struct pickle_array **rows)
{
    const struct pickle_value *data = pickle_dict_find(root, CIFAR_DATA);
    int result = check_images(data, name);
    if (result != EXIT_OK)
        return result;
    batch->count = data->array->shape[0];
    const struct cifar_layout *layout = conversion->layout;
    for (size_t kind = 0; result == EXIT_OK && kind < layout->label_count; kind++)
        result = copy_labels(pickle_dict_find(root, layout->labels[kind].key),
                             &layout->labels[kind], batch->count, name, &batch->labels[kind]);
    *rows = data->array;
    return result;
}

/* Where BATCH's rows are in the spool: in the member itself when the pickle held them as read,
   else (rewritten while parsing, e.g. from protocol 0 text) copied after it, a block at a time. */
static int place_rows(struct cifar_conversion *conversion, struct spool_view *view,
                      uint64_t member_offset, const struct pickle_array *rows, struct cifar_batch *batch)
{
    bool inside = rows->data >= view->bytes && rows->data <= view->bytes + view->size;
    size_t start = inside ? (size_t)(rows->data - view->bytes) : 0;
    if (rows->data_as_read && inside) {
        batch->spool_offset = member_offset + start;
        return EXIT_OK;
    }
    size_t total = (size_t)(batch->count * CIFAR_IMAGE_BYTES);
    int result = spool_append(conversion->spool, "", 0, &batch->spool_offset);
    for (size_t done = 0; result == EXIT_OK && done < total;) {
        size_t count = total - done < CIFAR_COPY_BYTES ? total - done : CIFAR_COPY_BYTES;
        result = spool_append(conversion->spool, rows->data + done, count, NULL);
        if (inside)
            spool_view_forget(view, start + done, count);
        done += count;
    }
    return result;
}

/* Parses the member spooled at MEMBER_OFFSET (SIZE bytes) through a copy-on-write mapping. */
static int parse_member(struct cifar_conversion *conversion, uint64_t member_offset, uint64_t size,
                        const char *name, struct cifar_batch *batch)
{
    static unsigned char empty[1];
    struct spool_view view = {.bytes = empty};
    int result = size > 0 ? spool_map(conversion->spool, member_offset, (size_t)size, &view)
                          : EXIT_OK;
    struct pickle *pickle = NULL;
    struct pickle_value root;
    const struct pickle_array *rows = NULL;
    if (result == EXIT_OK)
        result = pickle_parse(&pickle, view.bytes, (size_t)size, name, &root);
    if (result == EXIT_OK)
        result = cifar_extract_batch(conversion, &root, name, batch, &rows);
    if (result == EXIT_OK)
        result = place_rows(conversion, &view, member_offset, rows, batch);
    pickle_free(pickle);
    spool_unmap(&view);
    return result;
}

/* Places MEMBER straight when it can be, else through the spool; *RESTART when rows were put in
   place that cannot stay. */
static int place_member(struct cifar_conversion *conversion, int index, const char *name,
                        uint64_t size, bool *restart)
{
    struct cifar_prefix prefix = {NULL, 0, 0};
    enum cifar_direct_outcome outcome = CIFAR_SPOOL;
    int result = conversion->placing == CIFAR_THROUGH_SPOOL
                     ? EXIT_OK
                     : cifar_direct_member(conversion, index, name, size, &outcome, &prefix);
    if (result == EXIT_OK && outcome == CIFAR_SPOOL && conversion->placing == CIFAR_DIRECT)
        outcome = CIFAR_RESTART;
    *restart = result == EXIT_OK && outcome == CIFAR_RESTART;
    if (result == EXIT_OK && (outcome == CIFAR_SPOOL || outcome == CIFAR_SPOOLED))
        conversion->placing = CIFAR_THROUGH_SPOOL;
    uint64_t member_offset;
    if (result == EXIT_OK && outcome == CIFAR_SPOOL)
        result = spool_member(conversion, &prefix, size, &member_offset);
    cifar_prefix_release(&prefix);
    if (result == EXIT_OK && outcome == CIFAR_SPOOL)
        result = parse_member(conversion, member_offset, size, name, &conversion->batches[index]);
    return result;
}

static int take_member(struct cifar_conversion *conversion, int index, const char *member,
                       uint64_t size, bool *restart)
{
    struct cifar_batch *batch = &conversion->batches[index];
    if (batch->seen)
        return error_set(EXIT_CORRUPT_INPUT, "duplicate member: %s: %s", conversion->path, member);
    if (size > MAXIMUM_MEMBER_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "member too large: %s: %s: %llu bytes",
                         conversion->path, member, (unsigned long long)size);
    batch->seen = true;
    char name[4200];
    snprintf(name, sizeof name, "%s: %s", conversion->path, member);
    converter_report_stage(conversion->arguments, name, 0);
    int result = place_member(conversion, index, name, size, restart);
    if (result == EXIT_OK && !*restart)
        converter_report_done(conversion->arguments, batch->count);
    return result;
}

void cifar_batch_forget(struct cifar_batch *batch)
{
    for (size_t kind = 0; kind < CIFAR_MAX_LABELS; kind++) {
        free(batch->labels[kind]);
        batch->labels[kind] = NULL;
    }
    batch->count = 0;
}

static void forget_batches(struct cifar_conversion *conversion)
{
    for (size_t index = 0; index < CIFAR_MAX_MEMBERS; index++)
        cifar_batch_forget(&conversion->batches[index]);
    memset(conversion->batches, 0, sizeof conversion->batches);
}

static int open_archive(struct cifar_conversion *conversion)
{
    return archive_stream_open(&conversion->stream, conversion->path, ARCHIVE_STREAM_TAR,
                               conversion->arguments->threads);
}

/* Starts again through the spool, with an empty output, once this pass has read the archive to
   its end: the input's digests then stay those of one whole read. */
static int convert_again(struct cifar_conversion *conversion)
{
    const char *member = "";
    uint64_t size;
    int result = EXIT_OK;
    while (result == EXIT_OK && member != NULL)
        result = archive_stream_next(conversion->stream, &member, &size);
    archive_stream_close(conversion->stream);
    conversion->stream = NULL;
    forget_batches(conversion);
    conversion->placing = CIFAR_THROUGH_SPOOL;
    conversion->features = -1;
    if (result == EXIT_OK)
        result = h5py_writer_restart(conversion->writer);
    return result == EXIT_OK ? open_archive(conversion) : result;
}

static int read_archive(struct cifar_conversion *conversion)
{
    for (;;) {
        const char *member;
        uint64_t size;
        int result = archive_stream_next(conversion->stream, &member, &size);
        if (result != EXIT_OK || member == NULL)
            return result;
        int index = find_member(conversion->layout, member);
        bool restart = false;
        if (index >= 0)
            result = take_member(conversion, index, member, size, &restart);
        if (result == EXIT_OK && restart)
            result = convert_again(conversion);
        if (result != EXIT_OK)
            return result;
    }
}

static int check_complete(const struct cifar_conversion *conversion)
{
    for (size_t index = 0; index < conversion->layout->member_count; index++)
        if (!conversion->batches[index].seen)
            return error_set(EXIT_CORRUPT_INPUT, "missing member: %s: %s", conversion->path,
                             conversion->layout->members[index]);
    return EXIT_OK;
}

int cifar_declare_features(struct cifar_conversion *conversion, uint64_t total)
{
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4, .shape = {total, 3, 32, 32},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    return h5py_writer_add_source(conversion->writer, &features, &conversion->features);
}

static int declare_labels(struct cifar_conversion *conversion, uint64_t total,
                          int sources[CIFAR_MAX_LABELS])
{
    int result = EXIT_OK;
    for (size_t kind = 0; result == EXIT_OK && kind < conversion->layout->label_count; kind++) {
        struct h5py_source_declaration labels = {
            .name = conversion->layout->labels[kind].source, .type = ELEMENT_UINT8, .rank = 2,
            .shape = {total, 1}, .axis_labels = {"batch", "index"},
        };
        result = h5py_writer_add_source(conversion->writer, &labels, &sources[kind]);
    }
    return result;
}

/* Copies a spooled batch into place through the copy buffer, a block of rows at a time. */
static int copy_spooled(struct cifar_conversion *conversion, const struct cifar_batch *batch,
                        uint64_t first)
{
    uint64_t block_rows = CIFAR_COPY_BYTES / CIFAR_IMAGE_BYTES;
    for (uint64_t done = 0; done < batch->count;) {
        uint64_t rows = batch->count - done < block_rows ? batch->count - done : block_rows;
        int result = spool_read(conversion->spool, batch->spool_offset + done * CIFAR_IMAGE_BYTES,
                                conversion->buffer, (size_t)(rows * CIFAR_IMAGE_BYTES));
        if (result == EXIT_OK)
            result = h5py_writer_write(conversion->writer, conversion->features, first + done,
                                       rows, conversion->buffer);
        if (result != EXIT_OK)
            return result;
        done += rows;
    }
    return EXIT_OK;
}

static uint64_t first_row(const struct cifar_conversion *conversion, size_t member)
{
    uint64_t first = 0;
    for (size_t index = 0; index < member; index++)
        first += conversion->batches[index].count;
    return first;
}

static int write_rows(struct cifar_conversion *conversion, const int sources[CIFAR_MAX_LABELS])
{
    int result = EXIT_OK;
    uint64_t total = first_row(conversion, conversion->layout->member_count);
    converter_report_stage(conversion->arguments, "writing images", total);
    for (size_t index = 0; result == EXIT_OK && index < conversion->layout->member_count; index++) {
        const struct cifar_batch *batch = &conversion->batches[index];
        uint64_t first = first_row(conversion, index);
        if (batch->count == 0)
            continue;
        if (conversion->placing != CIFAR_DIRECT)
            result = copy_spooled(conversion, batch, first);
        for (size_t kind = 0; result == EXIT_OK && kind < conversion->layout->label_count; kind++)
            result = h5py_writer_write(conversion->writer, sources[kind], first, batch->count,
                                       batch->labels[kind]);
        converter_report_done(conversion->arguments, first + batch->count);
    }
    return result;
}

static int declare_splits(const struct cifar_conversion *conversion, struct h5py_writer *writer)
{
    const struct cifar_layout *layout = conversion->layout;
    int result = EXIT_OK;
    for (int split = 0; result == EXIT_OK && split < layout->split_count; split++) {
        uint64_t start = 0, stop = 0, position = 0;
        bool found = false;
        for (size_t index = 0; index < layout->member_count; index++) {
            if (layout->member_splits[index] == split) {
                start = found ? start : position;
                found = true;
                stop = position + conversion->batches[index].count;
            }
            position += conversion->batches[index].count;
        }
        result = h5py_writer_add_split(writer, layout->splits[split], NULL, start, stop);
    }
    return result;
}

static int write_output(struct cifar_conversion *conversion)
{
    int sources[CIFAR_MAX_LABELS];
    uint64_t total = first_row(conversion, conversion->layout->member_count);
    int result = conversion->placing == CIFAR_DIRECT ? EXIT_OK
                                                     : cifar_declare_features(conversion, total);
    if (result == EXIT_OK)
        result = declare_labels(conversion, total, sources);
    if (result == EXIT_OK)
        result = write_rows(conversion, sources);
    if (result == EXIT_OK)
        result = declare_splits(conversion, conversion->writer);
    return result;
}

static void release(struct cifar_conversion *conversion)
{
    archive_stream_close(conversion->stream);
    spool_close(conversion->spool);
    free(conversion->buffer);
    forget_batches(conversion);
    free(conversion);
}

int cifar_convert(const struct converter_arguments *arguments, struct h5py_writer *writer)
{
    const struct cifar_layout *layout = arguments->dataset->converter->layout;
    struct cifar_conversion *conversion = calloc(1, sizeof *conversion);
    if (conversion == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->layout = layout;
    conversion->arguments = arguments;
    conversion->writer = writer;
    conversion->features = -1;
    conversion->buffer = malloc(CIFAR_COPY_BYTES);
    if (conversion->buffer == NULL) {
        release(conversion);
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    }
    converter_input_path(arguments, layout->archive, conversion->path, sizeof conversion->path);
    int result = open_archive(conversion);
    if (result == EXIT_OK)
        result = spool_create(&conversion->spool, arguments->scratch_directory);
    if (result == EXIT_OK)
        result = read_archive(conversion);
    if (result == EXIT_OK)
        result = check_complete(conversion);
    if (result == EXIT_OK)
        result = write_output(conversion);
    release(conversion);
    return result;
}
