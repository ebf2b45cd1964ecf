/* The tfrecord form (TensorFlow's tf.data.TFRecordDataset): SPLIT-00000-of-000NN.tfrecord shards
   of TFRecord-framed tf.train.Example records under the keys of TensorFlow's ImageNet scripts
   (build_imagenet_data.py): image/encoded (PNG, or the stored JPEG bytes), image/format,
   image/height, image/width, image/channels, image/colorspace, image/filename (KEY.png or
   KEY.jpg), image/class/label (int64, as stored) and image/class/text (its class name, where the
   file names its classes); any other source as a FloatList (floats), an
   Int64List (integers, bools) or a BytesList (strings) of its flattened example under its own
   name. */
#include "common/base/error.h"
#include "exporters/tf_example_write.h"
#include "exporters/tfrecord_write.h"
#include "shard_export.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void tfrecord_shard_name(char *name, size_t size, const char *split, uint64_t index,
                                uint64_t count)
{
    snprintf(name, size, "%s-%05" PRIu64 "-of-%05" PRIu64 ".tfrecord", split, index, count);
}

static int bytes_add(struct tf_example *example, const char *key, const void *data, size_t size)
{
    const void *values[1] = {data};
    return tf_example_add_bytes(example, key, values, &size, 1);
}

static int int64_add(struct tf_example *example, const char *key, int64_t value)
{
    return tf_example_add_int64s(example, key, &value, 1);
}

static const char *colorspace(uint32_t channels)
{
    return channels == 1 ? "Grayscale" : channels == 4 ? "CMYK" : "RGB";
}

/* The image/... features of the primary image, or SOURCE/encoded and SOURCE/format of another. */
static int image_add(struct tf_example *example, const struct shard_source *item,
                     const struct shard_payload *payload, uint64_t key)
{
    const char *format = item->role == SHARD_PNG ? "PNG" : "JPEG";
    char name[600];
    if (!item->primary) {
        snprintf(name, sizeof name, "%s/encoded", item->source.name);
        int result = bytes_add(example, name, payload->data, payload->size);
        snprintf(name, sizeof name, "%s/format", item->source.name);
        return result == EXIT_OK ? bytes_add(example, name, format, strlen(format)) : result;
    }
    snprintf(name, sizeof name, "%08" PRIu64 ".%s", key, item->role == SHARD_PNG ? "png" : "jpg");
    const char *space = colorspace(payload->channels);
    int result = bytes_add(example, "image/encoded", payload->data, payload->size);
    if (result == EXIT_OK)
        result = bytes_add(example, "image/format", format, strlen(format));
    if (result == EXIT_OK)
        result = bytes_add(example, "image/filename", name, strlen(name));
    if (result == EXIT_OK)
        result = bytes_add(example, "image/colorspace", space, strlen(space));
    if (result == EXIT_OK)
        result = int64_add(example, "image/height", payload->height);
    if (result == EXIT_OK)
        result = int64_add(example, "image/width", payload->width);
    if (result == EXIT_OK)
        result = int64_add(example, "image/channels", payload->channels);
    return result;
}

static int64_t element_integer(const void *elements, size_t index, struct numeric_type type)
{
    const unsigned char *at = (const unsigned char *)elements + index * type.size;
    if (type.kind == 'u' && type.size == 8) {
        uint64_t value;
        memcpy(&value, at, sizeof value);
        return (int64_t)value;
    }
    if (type.kind == 'i' && type.size == 8) {
        int64_t value;
        memcpy(&value, at, sizeof value);
        return value;
    }
    return (int64_t)element_value(elements, index, type);
}

/* Fixed-length byte strings: a BytesList, each value without its NUL padding (as numpy reads it). */
static int strings_add(struct tf_example *example, const struct shard_source *item,
                       const struct shard_payload *payload)
{
    size_t length = item->source.type.size, count = payload->size / (length ? length : 1);
    const void **values = malloc((count ? count : 1) * sizeof *values);
    size_t *sizes = malloc((count ? count : 1) * sizeof *sizes);
    int result = values && sizes ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0; result == EXIT_OK && index < count; index++) {
        values[index] = payload->data + index * length;
        sizes[index] = strnlen(values[index], length);
    }
    if (result == EXIT_OK)
        result = tf_example_add_bytes(example, item->source.name, values, sizes, count);
    free(values);
    free(sizes);
    return result;
}

static int array_add(struct tf_example *example, const struct shard_source *item,
                     const struct shard_payload *payload)
{
    struct numeric_type type = item->source.type;
    if (type.kind == 'S')
        return strings_add(example, item, payload);
    size_t count = payload->size / type.size;
    void *values = malloc(count ? count * sizeof(int64_t) : 1);
    if (values == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result;
    if (type.kind == 'f') {
        elements_to_float(payload->data, type, count, 1, false, values);
        result = tf_example_add_floats(example, item->source.name, values, count);
    } else {
        int64_t *integers = values;
        for (size_t index = 0; index < count; index++)
            integers[index] = element_integer(payload->data, index, type);
        result = tf_example_add_int64s(example, item->source.name, integers, count);
    }
    free(values);
    return result;
}

/* image/class/label, and image/class/text (the class name, "" for an unnamed class) when the
   file names its classes, as build_imagenet_data.py writes the human-readable label. */
static int label_add(struct tf_example *example, const struct class_names *classes, int64_t label)
{
    int result = int64_add(example, "image/class/label", label);
    if (result != EXIT_OK || classes->count == 0)
        return result;
    const char *name = label >= 0 ? class_name(classes, (size_t)label) : NULL;
    return bytes_add(example, "image/class/text", name ? name : "", name ? strlen(name) : 0);
}

static int features_add(struct tf_example *example, const struct shard_sources *sources,
                        const struct shard_block *block, size_t index)
{
    int result = EXIT_OK;
    for (size_t source = 0; result == EXIT_OK && source < sources->count; source++) {
        const struct shard_source *item = &sources->items[source];
        const struct shard_payload *payload = shard_block_payload(block, index, source);
        if (!item->present)
            continue;
        if (item->role == SHARD_LABEL)
            result = label_add(example, &sources->classes, payload->label);
        else if (item->role == SHARD_ARRAY)
            result = array_add(example, item, payload);
        else
            result = image_add(example, item, payload, block->keys[index]);
    }
    return result;
}

/* On a worker: the example's record, framed in place in the block's output. */
static int tfrecord_encode_example(void *context, struct shard_block *block, size_t index)
{
    (void)context;
    const struct shard_sources *sources = block->sources;
    if (block->form_state == NULL && tf_example_create((struct tf_example **)&block->form_state)
                                         != EXIT_OK)
        return error_code();
    struct tf_example *example = block->form_state;
    tf_example_clear(example);
    size_t size = 0;
    unsigned char *at;
    int result = features_add(example, sources, block, index);
    if (result == EXIT_OK)
        result = tf_example_size(example, &size);
    if (result == EXIT_OK)
        result = shard_block_output(block, NULL, size + TFRECORD_OVERHEAD, &at);
    if (result != EXIT_OK)
        return error_set(result, "cannot encode example %" PRIu64 ": %s", block->keys[index],
                         error_message());
    tf_example_write(example, at + TFRECORD_HEADER_SIZE);
    tfrecord_encode(at, size + TFRECORD_OVERHEAD, at + TFRECORD_HEADER_SIZE, size);
    return EXIT_OK;
}

static void tfrecord_state_free(void *state)
{
    tf_example_free(state);
}

static void record_span(const struct shard_block *block, size_t index, size_t *start,
                        size_t *size)
{
    *start = index ? block->ends[index - 1] : 0;
    *size = block->ends[index] - *start;
}

static int tfrecord_example_write(struct shard_writer *writer, const struct shard_block *block,
                                  size_t index)
{
    size_t start, size;
    record_span(block, index, &start, &size);
    return shard_file_write(&writer->file, block->output + start, size);
}

static uint64_t tfrecord_example_bytes(const struct shard_sources *sources,
                                       const struct shard_block *block, size_t index)
{
    (void)sources;
    size_t start, size;
    record_span(block, index, &start, &size);
    return size;
}

static int tfrecord_shard_nothing(struct shard_writer *writer)
{
    (void)writer;
    return EXIT_OK;
}

static void tfrecord_shard_abandon(struct shard_writer *writer)
{
    (void)writer;
}

static void tfrecord_source_describe(const struct shard_sources *sources, size_t index,
                                     json_t *entry)
{
    const struct shard_source *item = &sources->items[index];
    char encoded[600];
    snprintf(encoded, sizeof encoded, "%s/encoded", item->source.name);
    const char *feature = item->role == SHARD_LABEL ? "image/class/label"
                          : item->role == SHARD_ARRAY ? item->source.name
                          : item->primary ? "image/encoded" : encoded;
    json_object_set_new(entry, "feature", json_string(feature));
    if (item->role == SHARD_LABEL && sources->classes.count > 0)
        json_object_set_new(entry, "name_feature", json_string("image/class/text"));
}

static const struct shard_format tfrecord_format = {
    .name = "tfrecord",
    .shard_name = tfrecord_shard_name,
    .probe_jpeg = true,
    .encode = tfrecord_encode_example,
    .state_free = tfrecord_state_free,
    .example_bytes = tfrecord_example_bytes,
    .shard_begin = tfrecord_shard_nothing,
    .example_write = tfrecord_example_write,
    .shard_end = tfrecord_shard_nothing,
    .shard_abandon = tfrecord_shard_abandon,
    .source_describe = tfrecord_source_describe,
};

static int tfrecord_prepare(struct export_job *job)
{
    return shard_export_prepare(job, &tfrecord_format);
}

static int tfrecord_form_write(struct export_job *job)
{
    return shard_export_write(job, &tfrecord_format);
}

const struct export_form export_form_tfrecord = {
    .name = "tfrecord", .variable = true, .write = tfrecord_form_write,
    .prepare = tfrecord_prepare, .finish = shard_export_finish,
    .listing = shard_export_listing};
