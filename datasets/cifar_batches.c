/* What CIFAR-10 and CIFAR-100 share: pickled batches streamed out of a tar.gz into sources. */
#include "cifar_batches.h"

#include "common/base/error.h"
#include "common/formats/pickle.h"
#include "common/formats/spool.h"
#include "common/formats/tar_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    IMAGE_BYTES = 3 * 32 * 32,
    MAXIMUM_MEMBER_BYTES = 1 << 30,
};

struct batch {
    bool seen;
    uint64_t count;
    uint64_t spool_offset;
    unsigned char *labels[CIFAR_MAX_LABELS];
};

/* The rows of a CIFAR archive can only be written once every batch has been parsed: the
   writer's datasets are contiguous, so their example count must be known when they are declared,
   members come in any order, and a batch's count is only learnt by parsing it. Holding every
   batch (180 MB) would break the memory bound, and reading the archive twice doubles the inflate
   time, so each batch's image rows go to an unlinked scratch file beside the output as soon as
   the next wanted member arrives, and are copied into place at the end. The last batch parsed is
   still in the member buffer then and is written from there without a detour. */
struct conversion {
    const struct cifar_layout *layout;
    char path[4096];
    struct tar_stream *stream;
    struct spool *spool;
    unsigned char *buffer;
    size_t buffer_size;
    struct batch batches[CIFAR_MAX_MEMBERS];
    int pending; /* batch whose rows are still in the buffer, or -1 */
    const unsigned char *pending_rows;
    /* Kept until those rows are spooled: text decoded from protocol 0 lives in its arena. */
    struct pickle *pending_pickle;
};

static int find_member(const struct cifar_layout *layout, const char *name)
{
    if (strncmp(name, "./", 2) == 0)
        name += 2;
    for (size_t index = 0; index < layout->member_count; index++)
        if (strcmp(layout->members[index].name, name) == 0)
            return (int)index;
    return -1;
}

static int spool_pending(struct conversion *conversion)
{
    if (conversion->pending < 0)
        return EXIT_OK;
    struct batch *batch = &conversion->batches[conversion->pending];
    conversion->pending = -1;
    int result = spool_append(conversion->spool, conversion->pending_rows,
                              (size_t)(batch->count * IMAGE_BYTES), &batch->spool_offset);
    pickle_free(conversion->pending_pickle);
    conversion->pending_pickle = NULL;
    return result;
}

static int read_member(struct conversion *conversion, const char *member, uint64_t size)
{
    if (size > MAXIMUM_MEMBER_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "member too large: %s: %s: %llu bytes",
                         conversion->path, member, (unsigned long long)size);
    if (size > conversion->buffer_size) {
        free(conversion->buffer);
        conversion->buffer = malloc((size_t)size);
        conversion->buffer_size = conversion->buffer != NULL ? (size_t)size : 0;
        if (conversion->buffer == NULL)
            return error_set(EXIT_OTHER, "cannot read member: %s: %s: out of memory",
                             conversion->path, member);
    }
    return tar_stream_read_exactly(conversion->stream, conversion->buffer, (size_t)size);
}

static int check_images(const struct pickle_value *data, const char *name)
{
    if (data == NULL || data->type != PICKLE_ARRAY || data->array->rank != 2 ||
        data->array->shape[1] != IMAGE_BYTES)
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

/* Takes the rows and labels out of a parsed batch; the rows stay in the member buffer. */
static int extract_batch(struct conversion *conversion, const struct pickle_value *root,
                         const char *name, struct batch *batch)
{
    const struct pickle_value *data = pickle_dict_find(root, "data");
    int result = check_images(data, name);
    if (result != EXIT_OK)
        return result;
    batch->count = data->array->shape[0];
    const struct cifar_layout *layout = conversion->layout;
    for (size_t kind = 0; result == EXIT_OK && kind < layout->label_count; kind++)
        result = copy_labels(pickle_dict_find(root, layout->labels[kind].key),
                             &layout->labels[kind], batch->count, name, &batch->labels[kind]);
    conversion->pending_rows = data->array->data;
    return result;
}

static int take_member(struct conversion *conversion, int index, const char *member,
                       uint64_t size)
{
    struct batch *batch = &conversion->batches[index];
    if (batch->seen)
        return error_set(EXIT_CORRUPT_INPUT, "duplicate member: %s: %s", conversion->path, member);
    batch->seen = true;
    int result = spool_pending(conversion);
    if (result == EXIT_OK)
        result = read_member(conversion, member, size);
    if (result != EXIT_OK)
        return result;
    char name[4200];
    snprintf(name, sizeof name, "%s: %s", conversion->path, member);
    struct pickle *pickle;
    struct pickle_value root;
    result = pickle_parse(&pickle, conversion->buffer, (size_t)size, name, &root);
    if (result != EXIT_OK)
        return result;
    result = extract_batch(conversion, &root, name, batch);
    if (result != EXIT_OK) {
        pickle_free(pickle);
        return result;
    }
    conversion->pending = index;
    conversion->pending_pickle = pickle;
    return EXIT_OK;
}

static int read_archive(struct conversion *conversion)
{
    for (;;) {
        const char *member;
        uint64_t size;
        int result = tar_stream_next(conversion->stream, &member, &size);
        if (result != EXIT_OK || member == NULL)
            return result;
        int index = find_member(conversion->layout, member);
        if (index >= 0)
            result = take_member(conversion, index, member, size);
        if (result != EXIT_OK)
            return result;
    }
}

static int check_complete(const struct conversion *conversion)
{
    for (size_t index = 0; index < conversion->layout->member_count; index++)
        if (!conversion->batches[index].seen)
            return error_set(EXIT_CORRUPT_INPUT, "missing member: %s: %s", conversion->path,
                             conversion->layout->members[index].name);
    return EXIT_OK;
}

static int declare_sources(struct conversion *conversion, struct h5py_writer *writer,
                           int sources[1 + CIFAR_MAX_LABELS])
{
    uint64_t total = 0;
    for (size_t index = 0; index < conversion->layout->member_count; index++)
        total += conversion->batches[index].count;
    struct h5py_source_declaration features = {
        .name = "features", .type = ELEMENT_UINT8, .rank = 4, .shape = {total, 3, 32, 32},
        .axis_labels = {"batch", "channel", "height", "width"},
    };
    int result = h5py_writer_add_source(writer, &features, &sources[0]);
    for (size_t kind = 0; result == EXIT_OK && kind < conversion->layout->label_count; kind++) {
        struct h5py_source_declaration labels = {
            .name = conversion->layout->labels[kind].source, .type = ELEMENT_UINT8, .rank = 2,
            .shape = {total, 1}, .axis_labels = {"batch", "index"},
        };
        result = h5py_writer_add_source(writer, &labels, &sources[1 + kind]);
    }
    return result;
}

/* Copies a spooled batch into place through the member buffer, a block of rows at a time. */
static int copy_spooled(struct conversion *conversion, struct h5py_writer *writer, int features,
                        const struct batch *batch, uint64_t first)
{
    uint64_t block_rows = conversion->buffer_size / IMAGE_BYTES;
    for (uint64_t done = 0; done < batch->count;) {
        uint64_t rows = batch->count - done < block_rows ? batch->count - done : block_rows;
        int result = spool_read(conversion->spool, batch->spool_offset + done * IMAGE_BYTES,
                                conversion->buffer, (size_t)(rows * IMAGE_BYTES));
        if (result == EXIT_OK)
            result = h5py_writer_write(writer, features, first + done, rows, conversion->buffer);
        if (result != EXIT_OK)
            return result;
        done += rows;
    }
    return EXIT_OK;
}

static uint64_t first_row(const struct conversion *conversion, size_t member)
{
    uint64_t first = 0;
    for (size_t index = 0; index < member; index++)
        first += conversion->batches[index].count;
    return first;
}

static int write_rows(struct conversion *conversion, struct h5py_writer *writer,
                      const int sources[1 + CIFAR_MAX_LABELS])
{
    int result = EXIT_OK;
    /* The batch left in the buffer goes first, so the buffer is free to carry the others. */
    if (conversion->pending >= 0 && conversion->batches[conversion->pending].count > 0)
        result = h5py_writer_write(writer, sources[0],
                                   first_row(conversion, (size_t)conversion->pending),
                                   conversion->batches[conversion->pending].count,
                                   conversion->pending_rows);
    for (size_t index = 0; result == EXIT_OK && index < conversion->layout->member_count; index++) {
        const struct batch *batch = &conversion->batches[index];
        uint64_t first = first_row(conversion, index);
        if (batch->count == 0)
            continue;
        if ((int)index != conversion->pending)
            result = copy_spooled(conversion, writer, sources[0], batch, first);
        for (size_t kind = 0; result == EXIT_OK && kind < conversion->layout->label_count; kind++)
            result = h5py_writer_write(writer, sources[1 + kind], first, batch->count,
                                       batch->labels[kind]);
    }
    return result;
}

static int declare_splits(const struct conversion *conversion, struct h5py_writer *writer)
{
    const struct cifar_layout *layout = conversion->layout;
    int result = EXIT_OK;
    for (int split = 0; result == EXIT_OK && split < layout->split_count; split++) {
        uint64_t start = 0, stop = 0, position = 0;
        bool found = false;
        for (size_t index = 0; index < layout->member_count; index++) {
            if (layout->members[index].split == split) {
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

static int write_output(struct conversion *conversion, struct h5py_writer *writer)
{
    int sources[1 + CIFAR_MAX_LABELS];
    int result = declare_sources(conversion, writer, sources);
    if (result == EXIT_OK)
        result = write_rows(conversion, writer, sources);
    if (result == EXIT_OK)
        result = declare_splits(conversion, writer);
    return result;
}

static void release(struct conversion *conversion)
{
    tar_stream_close(conversion->stream);
    spool_close(conversion->spool);
    pickle_free(conversion->pending_pickle);
    free(conversion->buffer);
    for (size_t index = 0; index < CIFAR_MAX_MEMBERS; index++)
        for (size_t kind = 0; kind < CIFAR_MAX_LABELS; kind++)
            free(conversion->batches[index].labels[kind]);
    free(conversion);
}

int cifar_convert(const struct cifar_layout *layout, const struct converter_arguments *arguments,
                  struct h5py_writer *writer)
{
    struct conversion *conversion = calloc(1, sizeof *conversion);
    if (conversion == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    conversion->layout = layout;
    conversion->pending = -1;
    converter_input_path(arguments, 0, conversion->path, sizeof conversion->path);
    int result = tar_stream_open(&conversion->stream, conversion->path);
    if (result == EXIT_OK)
        result = spool_create(&conversion->spool, arguments->scratch_directory);
    if (result == EXIT_OK)
        result = read_archive(conversion);
    if (result == EXIT_OK)
        result = check_complete(conversion);
    if (result == EXIT_OK)
        result = write_output(conversion, writer);
    release(conversion);
    return result;
}
